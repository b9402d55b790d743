import Foundation
import TestSupport
import Testing

/// `throbber encode X.lottie`: dotLottie archives written by Python's
/// zipfile (Tests/tools/dotlottie_make.py), drawn as the JSON inside them.
@Suite("dotLottie input")
struct DotLottieTests {
    /// Packs `entries` (name, file path or `text:…`) into `out`.
    static func pack(_ out: URL, _ method: String, _ entries: [(String, String)]) throws {
        _ = try Pillow.script("dotlottie_make.py", ["pack", out.path, method] + entries.map { "\($0.0)=\($0.1)" })
    }

    @Test(
        "the manifest's animation is drawn: the same bytes as encoding its JSON",
        .needsFixtures,
        arguments: ["v1-deflate", "v2-stored", "no-manifest"])
    func sameAsJSON(layout: String) throws {
        let lottie = try LottieExpectation.fixture("simple_loader")
        try withTemporaryDirectory { dir in
            let archive = dir.appendingPathComponent("loader.lottie")
            switch layout {
            case "v1-deflate":
                let manifest = #"{"version": "1", "animations": [{"id": "spin"}], "activeAnimationId": "spin"}"#
                try Self.pack(
                    archive, "deflate", [("manifest.json", "text:" + manifest), ("animations/spin.json", lottie.path)])
            case "v2-stored":
                // The first animation listed is damaged: `initial` picks the second.
                let manifest =
                    #"{"version": "2", "animations": [{"id": "a"}, {"id": "b"}], "initial": {"animation": "b"}}"#
                try Self.pack(
                    archive, "stored",
                    [("manifest.json", "text:" + manifest), ("a/a.json", "text:{\"broken"), ("a/b.json", lottie.path)])
            default:
                try Self.pack(archive, "deflate", [("animations/only.json", lottie.path)])
            }
            let fromArchive = dir.appendingPathComponent("archive.gif")
            let fromJSON = dir.appendingPathComponent("json.gif")
            let a = try Throbber.run(["encode", archive.path, "-o", fromArchive.path, "-q"])
            #expect(a.status == 0, "\(a.stderrText)")
            #expect(try Throbber.run(["encode", lottie.path, "-o", fromJSON.path, "-q"]).status == 0)
            #expect(try sha256sum([fromArchive]) == sha256sum([fromJSON]))
        }
    }

    @Test("an image in the archive is drawn, as if put into the JSON as a data: URI by hand")
    func images() throws {
        try withTemporaryDirectory { dir in
            _ = try Pillow.script("dotlottie_make.py", ["image", dir.path])
            let fromArchive = dir.appendingPathComponent("archive.png")
            let fromJSON = dir.appendingPathComponent("json.png")
            let a = try Throbber.run([
                "encode", dir.appendingPathComponent("image.lottie").path, "-o", fromArchive.path,
            ])
            #expect(a.status == 0, "\(a.stderrText)")
            let j = try Throbber.run(["encode", dir.appendingPathComponent("embedded.json").path, "-o", fromJSON.path])
            #expect(j.status == 0, "\(j.stderrText)")
            let ours = try ReferenceAnimation(.pillow, path: fromArchive.path)
            let theirs = try ReferenceAnimation(.pillow, path: fromJSON.path)
            // A still picture: the five frames are one, shown for 0.5 s.
            #expect(!ours.frames.isEmpty && ours.frames == theirs.frames)
            // The 40x30 picture sits centered on the 64x48 canvas (12…52, 9…39):
            // its left half translucent blue (alpha 200), its right half red.
            func pixel(_ x: Int, _ y: Int) -> [Int] {
                ours.frames[0][(y * 64 + x) * 4..<(y * 64 + x) * 4 + 4].map(Int.init)
            }
            let blue = pixel(20, 24)
            let red = pixel(40, 24)
            #expect(blue[0] == 0 && blue[1] == 0 && blue[2] >= 250 && abs(blue[3] - 200) <= 3, "\(blue)")
            #expect(red[0] >= 250 && red[1] == 0 && red[2] == 0 && red[3] >= 250, "\(red)")
            #expect(pixel(2, 2)[3] == 0 && pixel(60, 44)[3] == 0, "outside the picture stays transparent")
        }
    }

    @Test(
        "a damaged or unusable archive exits 65 naming the file and the fault, and writes nothing",
        arguments: [
            ("crc", "do not match"), ("encrypted", "encrypted"), ("truncate", "end-of-central-directory"),
            ("missing", "\"gone\" is not in the archive"), ("two", "2 animations"), ("bomb", "MiB"),
            ("method", "compression method"),
        ])
    func damaged(fault: String, message: String) throws {
        try withTemporaryDirectory { dir in
            let good = dir.appendingPathComponent("good.lottie")
            let json = #"{"v": "5.5", "fr": 10, "ip": 0, "op": 2, "w": 8, "h": 8, "layers": []}"#
            try Self.pack(
                good, "stored",
                [("manifest.json", #"text:{"animations": [{"id": "x"}]}"#), ("animations/x.json", "text:" + json)])
            let bad = dir.appendingPathComponent("bad.lottie")
            switch fault {
            case "missing":
                try Self.pack(bad, "deflate", [("manifest.json", #"text:{"animations": [{"id": "gone"}]}"#)])
            case "two":
                try Self.pack(bad, "deflate", [("a/x.json", "text:" + json), ("a/y.json", "text:" + json)])
            case "bomb":
                let zeros = dir.appendingPathComponent("zeros")
                try Data(count: 80 << 20).write(to: zeros)
                try Self.pack(bad, "deflate", [("animations/x.json", zeros.path)])
                try FileManager.default.removeItem(at: zeros)
            case "method":
                try Self.pack(bad, "stored", [("animations/x.json", "text:" + json)])
                var bytes = try Data(contentsOf: bad)
                // Method field: offset 8 of the local header, 10 of the central one.
                let central = bytes.range(of: Data([0x50, 0x4B, 0x01, 0x02]))!.lowerBound
                bytes[8] = 12
                bytes[central + 10] = 12  // bzip2
                try bytes.write(to: bad)
            default:
                _ = try Pillow.script("dotlottie_make.py", ["damage", good.path, bad.path, fault])
            }
            try FileManager.default.removeItem(at: good)
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode", bad.path, "-o", out.path])
            expectFailure(r, status: 65, names: [bad.path, message])
            #expect(try listing(dir) == ["bad.lottie"])
        }
    }
}
