import Foundation
import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore

/// ``DotLottieWriter`` and its ``ZipWriter``: archives that Python's zipfile
/// reads clean (Tests/tools/dotlottie_check.py), with a manifest that follows
/// dotLottie 2.0, themes under `t/` listed in it, and Throbber's own reader
/// finding the animation.
@Suite("dotLottie writer")
struct DotLottieWriterTests {
    /// What dotlottie_check.py says of an archive.
    struct Report: Decodable {
        struct Entry: Decodable {
            var name: String
            var method: Int
            var crc: UInt32
            var compressSize: Int
            var fileSize: Int
            var dateTime: [Int]
            var flagBits: Int
            var extra: String
            var comment: String
            var createSystem: Int
            var externalAttr: Int
            var sha256: String
        }
        var testzip: String?
        var entries: [Entry]
        var localOrder: [String]
        var errors: [String]
    }

    /// A small Lottie animation: a square that turns.
    static let animation = Array(
        #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":20,"h":20,"ddd":0,"assets":[],"layers":[]}"#.utf8)
    /// A theme in the shape dotLottie 2.0 themes have: rules that set slots.
    static let theme = Array(#"{"rules":[{"id":"ink","type":"Color","value":[1,0,0,1]}]}"#.utf8)

    /// Reads the script's snake_case keys.
    static let decoder = {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }()

    /// Writes `bytes` to a file in `dir` and reads it with dotlottie_check.py.
    static func report(_ bytes: [UInt8], in dir: URL) throws -> Report {
        let file = dir.appendingPathComponent("x.lottie")
        try Data(bytes).write(to: file)
        return try Self.decoder.decode(Report.self, from: ToolRunner.python("dotlottie_check.py", [file.path]))
    }

    static func hex(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }

    @Test("one animation: manifest.json then a/loader.json, read clean by Python's zipfile, no extras, DOS 1980-01-01")
    func animationOnly() throws {
        let archive = try DotLottieWriter.archive(animation: Self.animation)
        try withTemporaryDirectory { dir in
            let r = try Self.report(archive, in: dir)
            #expect(r.testzip == nil)
            #expect(r.errors.isEmpty, "\(r.errors)")
            #expect(r.entries.map(\.name) == ["manifest.json", "a/loader.json"])
            #expect(r.localOrder == ["manifest.json", "a/loader.json"])
            #expect(r.entries[1].sha256 == Self.hex(Self.animation))
            for e in r.entries {
                #expect(e.dateTime == [1980, 1, 1, 0, 0, 0] && e.extra.isEmpty && e.comment.isEmpty, "\(e.name)")
                #expect(e.flagBits == 0 && e.createSystem == 0 && e.externalAttr == 0, "\(e.name)")
            }
        }
        let manifest = try #require(try ZipArchive(archive, name: "x").contents(of: "manifest.json", limit: 4096))
        #expect(
            String(decoding: manifest, as: UTF8.self)
                == #"{"version":"2","generator":"Throbber","animations":[{"id":"loader"}]}"#)
        #expect(try DotLottie.animation(archive, name: "x.lottie", limit: 1 << 20) == Self.animation)
    }

    @Test("themes: t/ID.json before the animation, listed in the manifest and by the animation; the spec's rules hold")
    func themes() throws {
        let dark = DotLottieWriter.Theme(id: "dark", json: Self.theme)
        let light = DotLottieWriter.Theme(id: "light_2", json: Array(#"{"rules":[]}"#.utf8))
        let archive = try DotLottieWriter.archive(animation: Self.animation, themes: [dark, light])
        let zip = try ZipArchive(archive, name: "x")
        #expect(zip.entries.map(\.name) == ["manifest.json", "t/dark.json", "t/light_2.json", "a/loader.json"])
        #expect(try zip.contents(of: "t/dark.json", limit: 4096) == Self.theme)
        let manifest = try #require(try zip.contents(of: "manifest.json", limit: 4096))
        #expect(
            String(decoding: manifest, as: UTF8.self)
                == #"{"version":"2","generator":"Throbber","animations":[{"id":"loader","themes":["dark","light_2"]}],"themes":[{"id":"dark"},{"id":"light_2"}]}"#
        )
        try withTemporaryDirectory { dir in
            let r = try Self.report(archive, in: dir)
            #expect(r.testzip == nil)
            #expect(r.errors.isEmpty, "\(r.errors)")
            // A reader that takes the last .json entry (lottie-android) gets the animation.
            #expect(r.localOrder.last == "a/loader.json")
            #expect(r.entries.first { $0.name == "t/dark.json" }?.sha256 == Self.hex(Self.theme))
        }
        // Throbber's reader draws the animation, not a theme.
        #expect(try DotLottie.animation(archive, name: "x.lottie", limit: 1 << 20) == Self.animation)
    }

    @Test("the same arguments give the same bytes; an entry deflate cannot shrink is stored")
    func deterministicAndStored() throws {
        let a = try DotLottieWriter.archive(animation: Self.animation, themes: [.init(id: "t", json: Self.theme)])
        let b = try DotLottieWriter.archive(animation: Self.animation, themes: [.init(id: "t", json: Self.theme)])
        #expect(a == b)
        // Bytes with no repeats: deflate only adds its block header.
        var state: UInt32 = 1
        let noise = (0..<3000).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        var zip = ZipWriter()
        try zip.add("noise.bin", noise)
        try zip.add("text.json", Self.animation + Self.animation)
        let archive = try zip.bytes()
        try withTemporaryDirectory { dir in
            let r = try Self.report(archive, in: dir)
            #expect(r.testzip == nil)
            #expect(r.entries.map(\.method) == [0, 8])
            #expect(r.entries[0].compressSize == 3000 && r.entries[0].sha256 == Self.hex(noise))
            #expect(r.entries[1].compressSize < r.entries[1].fileSize)
        }
        let empty = try ZipWriter().bytes()
        #expect(empty == [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))
    }

    @Test(
        "ids that cannot name a file, a theme given twice and a theme that is not JSON are refused",
        arguments: [
            ("", [String](), "animation id \"\""), ("a/b", [], "animation id \"a/b\""),
            ("loader", ["x y"], "theme id \"x y\""), ("loader", ["d", "d"], "\"d\": given twice"),
            ("loader", ["é"], "theme id \"é\""), ("loader", ["bad-json"], "dotLottie theme \"bad-json\""),
        ])
    func refused(id: String, themes: [String], message: String) throws {
        let list = themes.map { DotLottieWriter.Theme(id: $0, json: $0 == "bad-json" ? Array("{".utf8) : Self.theme) }
        do {
            _ = try DotLottieWriter.archive(animation: Self.animation, id: id, themes: list)
            Issue.record("no error for \(id) \(themes)")
        } catch let e as ThrobberError {
            #expect(e.kind == .data)
            #expect(e.message.contains(message), "\(e.message)")
        }
    }
}
