import Foundation
import TestSupport
import Testing

/// Configs that are valid key by key but could not finish, or not draw:
/// refused at once with the JSON path that multiplies (issue #14).
@Suite("render: budgets of a valid config", .tags(.slow))
struct RenderBudgetTests {
    typealias Case = RenderValidationTests.Case
    static let canvas = RenderValidationTests.canvas

    static func scene(_ layers: String, timing: String = "") -> String {
        #"{"version": 1, \#(canvas), \#(timing.isEmpty ? "" : "\"timing\": \(timing), ")"layers": [\#(layers)]}"#
    }

    static let cases: [Case] = [
        Case(
            name: "three nested repeats of 1000: 10^9 drawings a frame",
            json: scene(
                #"{"group": [{"group": [{"circle": {"radius": 1}, "repeat": {"count": 1000}}], "repeat": {"count": 1000}}], "repeat": {"count": 1000}}"#
            ),
            status: 65, path: "layers[0].group[0].repeat.count",
            says: "1000 copies of 1001 drawn items are 1001000 drawn items a frame, more than 100000"),
        Case(
            name: "more layers than a frame draws",
            json: scene(Array(repeating: #"{"circle": {"radius": 1}}"#, count: 100_001).joined(separator: ",")),
            status: 65, path: "layers", says: "100001 drawn items a frame, more than 100000"),
        Case(
            name: "an easing that overshoots a scale to 2·10^5",
            json: scene(
                #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 0, "ease": "cubic-bezier(0,100,1,1)"}, {"at": 0.5, "value": 2000}]}]}"#
            ),
            status: 65, path: "layers[0]", says: "can be drawn 2e+06 pixels across"),
        Case(
            name: "scales that multiply through groups",
            json: scene(#"{"group": [{"group": [{"circle": {"radius": 5}}], "scale": 1000}], "scale": 1000}"#),
            status: 65, path: "layers[0].group[0].group[0]", says: "can be drawn 1e+07 pixels across"),
        Case(
            name: "a frame rate that gives no frame",
            json: scene(#"{"circle": {"radius": 5}}"#, timing: #"{"fps": 0.0001, "duration": 0.75}"#),
            status: 65, path: "timing.fps", says: "less than one frame"),
        Case(
            name: "a frame rate that skips steps",
            json: scene(
                #"{"circle": {"radius": 5}, "animate": [{"kind": "step", "property": "rotate", "by": 30}]}"#,
                timing: #"{"fps": 2}"#),
            status: 65, path: "timing.fps",
            says: "6 frames cannot show the 12 steps of 0.25 s in a cycle of 3 s; use at least 4 fps"),
        Case(
            name: "frames times items over the animation's budget",
            json: scene(
                Array(repeating: #"{"circle": {"radius": 1}, "repeat": {"count": 1000}}"#, count: 6).joined(
                    separator: ","), timing: #"{"duration": 40}"#),
            status: 65, path: "timing", says: "1000 frames of 6000 drawn items each are more than 5000000 drawings"),
    ]

    @Test("refused before drawing, naming the JSON path that multiplies", arguments: cases)
    func refused(_ c: Case) throws { try RenderValidationTests.expectRefused(c) }

    @Test("a config over 4 MiB is refused before it is parsed")
    func tooLarge() throws {
        let padding = String(repeating: " ", count: 4 << 20)
        try RenderValidationTests.expectRefused(
            Case(
                name: "large", json: Self.scene(#"{"circle": {"radius": 5}}"#) + padding, status: 65, path: "",
                says: "bytes, larger than a config may be (4 MiB)"))
    }

    @Test("60,000 layers (just under 4 MiB) render: the budgets are not in the way")
    func largeButFine() throws {
        // Red discs, and a blue one on top: each at its own place on a 60x60 canvas.
        let red = (0..<59_999).map {
            ##"{"circle": {"radius": 1}, "center": [\##($0 % 59), \##($0 / 59 % 59)], "fill": "#ff0000"}"##
        }
        let blue = ##"{"circle": {"radius": 2}, "center": [30, 30], "fill": "#0000ff"}"##
        let json = Self.scene((red + [blue]).joined(separator: ","), timing: #"{"fps": 1}"#)
        #expect(json.utf8.count < 4 << 20)
        try withTemporaryDirectory { dir in
            try SceneCLI.write(json, to: dir, as: "many.json")
            let r = try Throbber.run(["render", "many.json", "-o", "many.png"], in: dir)
            #expect(r.status == 0, "\(r.stderrText)")
            let out = try ReferenceAnimation(.pillow, path: dir.appendingPathComponent("many.png").path)
            func pixel(_ x: Int, _ y: Int) -> [Int] {
                out.frames[0][(y * 60 + x) * 4..<(y * 60 + x) * 4 + 4].map(Int.init)
            }
            #expect(pixel(30, 30) == [0, 0, 255, 255], "the last layer is on top")
            #expect(pixel(10, 50) == [255, 0, 0, 255], "the red discs cover the canvas")
        }
    }
}
