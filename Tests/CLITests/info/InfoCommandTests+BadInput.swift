import Foundation
import TestSupport
import Testing

extension InfoCommandTests {
    struct BadFile: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "empty.gif", bytes: []),
        BadFile(name: "text.gif", bytes: Array("hello, this is not an image\n".utf8)),
        BadFile(name: "random.png", bytes: (0..<300).map { UInt8(($0 * 131 + 7) % 256) }),
        BadFile(name: "header-only.gif", bytes: Array("GIF89a".utf8)),
        BadFile(name: "screen-only.gif", bytes: Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0]),
        BadFile(name: "no-frames.gif", bytes: Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0, 0x3B]),
        BadFile(name: "zero-size.gif", bytes: Array("GIF89a".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x3B]),
        BadFile(name: "png-signature-only.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        BadFile(
            name: "jpeg.jpg",
            bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]),
    ]

    @Test("invalid files exit 65 with one clear error line naming the file", arguments: badFiles)
    func invalidFile(_ bad: BadFile) throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let url = dir.appendingPathComponent(bad.name)
            try Data(bad.bytes).write(to: url)
            for args in [["info", url.path], ["info", "--json", url.path]] {
                let r = try Throbber.run(args)
                #expect(r.status == 65, "\(bad.name): exit \(r.status): \(r.stderrText)")
                #expect(r.stdout.isEmpty)
                #expect(
                    r.stderrLines.count == 1 && r.stderrText.hasPrefix("throbber: error: \(url.path): "),
                    "\(r.stderrText)")
            }
        }
    }

    @Test("a still PNG, a truncated GIF and a damaged APNG exit 65")
    func invalidImages() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let still = try Pillow.makeFrames([Pillow.Frame("still.png", color: [1, 2, 3, 255])], in: dir)[0]
            let gif = dir.appendingPathComponent("ok.gif")
            #expect(try Throbber.run(["encode", still.path, still.path, "-o", gif.path, "-q"]).status == 0)
            let bytes = try Data(contentsOf: gif)
            let truncated = dir.appendingPathComponent("truncated.gif")
            try bytes.prefix(20).write(to: truncated)
            _ = try CheckKit.makeCraftedAnimations(in: dir.appendingPathComponent("c"))
            // apng_rgba.png with its second fcTL's sequence number changed.
            var apng = [UInt8](try Data(contentsOf: dir.appendingPathComponent("c/apng_rgba.png")))
            let fcTL = Array("fcTL".utf8)
            let second = (0..<(apng.count - 4)).filter { Array(apng[$0..<$0 + 4]) == fcTL }[1]
            apng[second + 7] ^= 0x40
            let damaged = dir.appendingPathComponent("damaged.png")
            try Data(apng).write(to: damaged)
            for url in [still, truncated, damaged] {
                let r = try Throbber.run(["info", "--json", url.path])
                #expect(r.status == 65, "\(url.lastPathComponent): exit \(r.status): \(r.stderrText)")
                #expect(r.stdout.isEmpty)
                #expect(r.stderrText.hasPrefix("throbber: error: \(url.path): "), "\(r.stderrText)")
            }
        }
    }

    @Test("a missing file exits 66; no file or two files exit 64")
    func missingAndUsage() throws {
        let missing = try Throbber.run(["info", "/nonexistent/none.gif"])
        #expect(missing.status == 66)
        #expect(missing.stderrText.contains("/nonexistent/none.gif"))
        #expect(try Throbber.run(["info"]).status == 64)
        #expect(try Throbber.run(["info", "a.gif", "b.gif"]).status == 64)
        #expect(try Throbber.run(["info", "--bogus", "a.gif"]).status == 64)
    }

    @Test("a folder given as FILE exits 65 and says it is a folder, like every other command reading a file")
    func folder() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let r = try Throbber.run(["info", dir.path])
            let check = try Throbber.run(["check", dir.path])
            #expect(check.status == 65, "check: \(check.stderrText)")
            #expect(r.status == 65, "info on a folder exits \(r.status): \(r.stderrText)")
            #expect(r.stderrText.contains("folder"), "\(r.stderrText)")
        }
    }
}
