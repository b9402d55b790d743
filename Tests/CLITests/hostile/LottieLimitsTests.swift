import Foundation
import TestSupport
import Testing

/// Lottie files rlottie would take seconds per frame to draw (found by
/// scripts/mutate-run: a stroke width of 10⁹ in iphone_x_loading.json
/// took 12 s at 240 pixels) are refused before drawing, naming the value.
@Suite("Hostile Lottie values: huge strokes and repeaters", .tags(.slow))
struct LottieLimitsTests {
    /// A 64×64, 10-frame Lottie: one shape layer with a rectangle, a
    /// stroke of width `stroke` and, when `copies` is given, a repeater.
    static func lottie(stroke: String, copies: String? = nil) -> String {
        let repeater =
            copies.map {
                #", {"ty": "rp", "c": {"a": 0, "k": \#($0)}, "o": {"a": 0, "k": 0}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": [2, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
            } ?? ""
        return #"""
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 64, "h": 64, "layers": [
              {"ty": 4, "ind": 1, "ip": 0, "op": 10, "st": 0,
               "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [32, 32]},
                      "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}},
               "shapes": [{"ty": "gr", "it": [
                 {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [30, 20]}, "r": {"a": 0, "k": 0}},
                 {"ty": "st", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": \#(stroke)}, "lc": 1, "lj": 1},
                 {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                  "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}\#(repeater)]}]}]}
            """#
    }

    @Test("a stroke 10^9 wide and a repeater of 10^6 copies: exit 65 at once, naming the JSON path; 4 wide draws")
    func refused() throws {
        try withTemporaryDirectory { dir in
            let good = dir.appendingPathComponent("good.json")
            try Self.lottie(stroke: "4").write(to: good, atomically: true, encoding: .utf8)
            var r = try Throbber.run(["encode", good.path, "-o", dir.appendingPathComponent("good.gif").path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            let gif = try Pillow.decode(dir.appendingPathComponent("good.gif"))
            #expect(gif.width == 64 && gif.height == 64)

            let wide = dir.appendingPathComponent("wide.json")
            try Self.lottie(stroke: "1e9").write(to: wide, atomically: true, encoding: .utf8)
            let started = Date()
            r = try Throbber.run(["encode", wide.path, "-o", dir.appendingPathComponent("wide.gif").path])
            expectFailure(r, status: 65, names: ["wide.json", "layers[0].shapes[0].it[1].w.k", "1e9"])
            #expect(Date().timeIntervalSince(started) < 5)

            let many = dir.appendingPathComponent("many.json")
            try Self.lottie(stroke: "4", copies: "1000000").write(to: many, atomically: true, encoding: .utf8)
            r = try Throbber.run(["encode", many.path, "-o", dir.appendingPathComponent("many.gif").path])
            expectFailure(r, status: 65, names: ["many.json", "layers[0].shapes[0].it[3].c", "1000000 copies"])
            #expect(try listing(dir) == ["good.gif", "good.json", "many.json", "wide.json"])
        }
    }
}
