import Foundation
import TestSupport
import Testing

/// `throbber info FILE [--json]`, compared with an independent reader of the
/// file structure (Tests/tools/check_anim_structure.py, plain `struct`) and
/// with hand-built files whose every field is known (check_make_anim.py).
@Suite("throbber info", .tags(.slow))
struct InfoCommandTests {
    /// Crafted files whose expected values Throbber gets wrong today; each
    /// has its own test below, so the others can be compared completely.
    static let craftedWithKnownIssues: Set<String> = ["apng_rgb_suggested_plte.png", "apng_many_plays.png"]

    @Test("--json of hand-built GIFs and APNGs: every field as written, and as the structure reader reads it")
    func craftedFiles() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let written = try CheckKit.makeCraftedAnimations(in: dir)
            #expect(written.count == 11)
            let urls = written.keys.sorted().map { dir.appendingPathComponent($0) }
            let read = try CheckKit.structure(of: urls)
            let hashes = try CheckKit.sha256sum(urls)
            for (url, sha) in zip(urls, hashes) where !Self.craftedWithKnownIssues.contains(url.lastPathComponent) {
                let name = url.lastPathComponent
                // The reader agrees with the writer (so the reader is right for these).
                let r = try #require(read[url.path])
                #expect(
                    r.frames == written[name]!.frames && r.loop == written[name]!.loop,
                    "structure reader disagrees with the writer on \(name)")
                let info = try CheckKit.info(url).info
                CheckKit.expectInfo(info, matches: written[name]!, name)
                #expect(info.sha256 == sha, "\(name): sha256 \(info.sha256), sha256sum says \(sha)")
            }
        }
    }

    @Test("exact APNG delays: 1/3 s is 333.333 ms, a zero denominator means 1/100 s, the total adds fractions exactly")
    func exactDelays() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            _ = try CheckKit.makeCraftedAnimations(in: dir)
            let (info, raw) = try CheckKit.info(dir.appendingPathComponent("apng_rgba.png"))
            #expect(info.frames.map(\.delay_num) == [1, 0, 7, 65535])
            #expect(info.frames.map(\.delay_den) == [3, 100, 1000, 65535])
            let text = String(decoding: raw, as: UTF8.self)
            // 1/3 + 0 + 7/1000 + 1 s = 1340.333… ms
            #expect(text.contains("\"delay_ms\": 333.333,"), "\(text)")
            #expect(text.contains("\"duration_ms\": 1340.333,"), "\(text)")
            let gif = try CheckKit.info(dir.appendingPathComponent("gif_mixed.gif")).info
            #expect(gif.frames.map(\.delay_ms) == [70, 1230, 0, 0, 655_350])
            #expect(gif.duration_ms == 656_650)
            #expect(gif.loop == 3, "NETSCAPE repeat count 2 = 3 plays")
        }
    }

    @Test("a truecolor APNG with a suggested palette (PLTE) has truecolor frames: colors is null")
    func truecolorWithSuggestedPalette() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            _ = try CheckKit.makeCraftedAnimations(in: dir)
            let info = try CheckKit.info(dir.appendingPathComponent("apng_rgb_suggested_plte.png")).info
            #expect(
                info.frames.map(\.colors) == [nil, nil],
                "color type 2 with a 7-entry suggested PLTE: info reports colors \(info.frames.map(\.colors)) (StoredFrame.colors: nil for truecolor)"
            )
        }
    }

    @Test("an APNG's num_plays is reported as stored, also above 65535")
    func manyPlays() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            _ = try CheckKit.makeCraftedAnimations(in: dir)
            let info = try CheckKit.info(dir.appendingPathComponent("apng_many_plays.png")).info
            #expect(info.loop == 100_000, "num_plays 100000 is reported as loop \(info.loop)")
        }
    }

    @Test("--json of Throbber's own GIFs and APNGs matches the structure reader and sha256sum")
    func ownOutputs() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            var made: [URL] = []
            for (config, ext) in [
                ("dots.json", "gif"), ("dots.json", "png"), ("ease.json", "gif"), ("ease.json", "png"),
            ] {
                let out = dir.appendingPathComponent("\(config.dropLast(5)).\(ext)")
                let r = try Throbber.run([
                    "render", CheckKit.examples.appendingPathComponent(config).path, "-o", out.path, "-q",
                ])
                #expect(r.status == 0, "\(r.stderrText)")
                made.append(out)
            }
            for (preset, ext) in [("ring", "gif"), ("spinner", "png")] {
                let out = dir.appendingPathComponent("\(preset).\(ext)")
                #expect(try Throbber.run(["preset", preset, "-o", out.path, "-q", "--size", "40"]).status == 0)
                made.append(out)
            }
            let frames = dir.appendingPathComponent("frames")
            try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "c.png"], width: 12, height: 10), in: frames)
            for ext in ["gif", "png"] {
                let out = dir.appendingPathComponent("encoded.\(ext)")
                let r = try Throbber.run(["encode", frames.path, "-o", out.path, "--delay", "7", "--loop", "3", "-q"])
                #expect(r.status == 0, "\(r.stderrText)")
                made.append(out)
            }
            let read = try CheckKit.structure(of: made)
            let hashes = try CheckKit.sha256sum(made)
            var infos: [String: CheckKit.Info] = [:]
            for (url, sha) in zip(made, hashes) {
                let info = try CheckKit.info(url).info
                infos[url.lastPathComponent] = info
                CheckKit.expectInfo(info, matches: read[url.path]!, url.lastPathComponent)
                #expect(info.sha256 == sha)
                #expect(info.format == (url.pathExtension == "gif" ? "gif" : "apng"))
            }
            let encodedGIF = try #require(infos["encoded.gif"])
            #expect(
                encodedGIF.loop == 3 && encodedGIF.frames.map(\.delay_ms) == [70, 70, 70]
                    && encodedGIF.duration_ms == 210)
            let encodedPNG = try #require(infos["encoded.png"])
            #expect(encodedPNG.loop == 3 && encodedPNG.duration_ms == 210)
        }
    }

    /// Fixtures that are not a usable animation: corrupt by design (SOURCES.md),
    /// still PNGs, num_frames 0 or beyond 2^31 − 1. (gif-pillow/issue_2811.gif,
    /// LZW minimum code size 11, is shown by browsers and Pillow, and by
    /// Throbber since 83bb954: it is compared like the others.)
    static let invalidFixtures: Set<String> = [
        "apng-apngkit/spec/000.png", "apng-apngkit/spec/003.png", "apng-apngkit/spec/004.png",
        "apng-apngkit/spec/039.png", "apng-apngkit/spec/041.png", "apng-apngkit/spec/042.png",
        "apng-apngkit/spec/043.png", "apng-apngkit/spec/044.png", "apng-apngkit/spec/045.png",
        "apng-apngkit/spec/046.png", "apng-apngkit/spec/048.png", "apng-apngkit/spec/049.png",
        "apng-apngkit/spec/050.png", "apng-apngkit/spec/051.png", "apng-apngkit/spec/052.png",
        "apng-apngkit/spec/053.png", "apng-apngkit/spec/054.png", "apng-apngkit/spec/055.png",
        "apng-apngkit/spec/056.png", "apng-apngkit/spec/057.png",
        "apng-pillow/chunk_actl_after_idat.png", "apng-pillow/chunk_no_actl.png", "apng-pillow/chunk_no_fctl.png",
        "apng-pillow/chunk_no_fdat.png", "apng-pillow/chunk_repeat_fctl.png", "apng-pillow/sequence_fdat_fctl.png",
        "apng-pillow/sequence_gap.png", "apng-pillow/sequence_reorder.png", "apng-pillow/sequence_reorder_chunk.png",
        "apng-pillow/sequence_repeat.png", "apng-pillow/sequence_repeat_chunk.png", "apng-pillow/sequence_start.png",
        "apng-pillow/syntax_num_frames_high.png", "apng-pillow/syntax_num_frames_invalid.png",
        "apng-pillow/syntax_num_frames_zero.png", "apng-pillow/syntax_num_frames_zero_default.png",
        "gif-pillow/decompression_bomb.gif", "gif-pillow/zero_width.gif",
        // Errors the APNG spec recovers from by showing the default image
        // (a second acTL, more frames than acTL says): stills, not animations.
        "apng-apngkit/spec/040.png", "apng-apngkit/spec/047.png",
        "apng-pillow/chunk_multi_actl.png", "apng-pillow/syntax_num_frames_low.png",
        // A frame placed beyond any GIF canvas: refused as a bomb (SOURCES.md).
        "gif-pillow/decompression_bomb_extents.gif",
    ]

    /// Fixtures whose `colors` Throbber reports differently from what the
    /// file states (separate tests below).
    static let fixturesWithColorIssues: Set<String> = [
        "gif-pillow/no_palette.gif", "gif-pillow/no_palette_after_rgb.gif", "apng-apngkit/animations/minimal.apng",
    ]

    /// Every GIF and APNG fixture, relative to the fixture folder.
    static func animationFixtures() throws -> [String] {
        let fm = FileManager.default
        guard let e = fm.enumerator(atPath: Fixtures.root.path) else { return [] }
        var list: [String] = []
        while let rel = e.nextObject() as? String {
            let top = rel.split(separator: "/").first.map(String.init) ?? ""
            let ext = (rel as NSString).pathExtension.lowercased()
            if ext == "gif" || ext == "apng" || (ext == "png" && top.hasPrefix("apng-")) { list.append(rel) }
        }
        return list.sorted()
    }

    @Test("every GIF and APNG fixture: --json matches the structure reader; the invalid ones exit 65", .needsFixtures)
    func fixtures() throws {
        let names = try Self.animationFixtures()
        #expect(names.count > 150, "found only \(names.count) animation fixtures")
        let urls = names.map { Fixtures.root.appendingPathComponent($0) }
        let read = try CheckKit.structure(of: urls)
        let hashes = try CheckKit.sha256sum(urls)
        var compared = 0
        for ((name, url), sha) in zip(zip(names, urls), hashes) {
            let r = try Throbber.run(["info", "--json", url.path])
            if Self.invalidFixtures.contains(name) {
                #expect(r.status == 65, "\(name): exit \(r.status), expected 65 (not a usable animation)")
                #expect(r.stdout.isEmpty)
                #expect(
                    r.stderrLines.count == 1 && r.stderrText.hasPrefix("throbber: error: \(url.path): "),
                    "\(name): \(r.stderrText)")
                continue
            }
            guard r.status == 0 else {
                Issue.record("\(name): info exited \(r.status): \(r.stderrText)")
                continue
            }
            let info = try JSONDecoder().decode(CheckKit.Info.self, from: r.stdout)
            let skip: Set<String> = Self.fixturesWithColorIssues.contains(name) ? ["colors"] : []
            CheckKit.expectInfo(info, matches: read[url.path]!, name, skip: skip)
            #expect(info.sha256 == sha, "\(name): sha256")
            compared += 1
        }
        #expect(compared > 100, "only \(compared) fixtures compared")
    }

    @Test(
        "a GIF frame without any color table (no local, no global) reports colors null, not a made-up 256",
        .needsFixtures)
    func gifWithoutColorTable() throws {
        for name in ["gif-pillow/no_palette.gif", "gif-pillow/no_palette_after_rgb.gif"] {
            let url = try Fixtures.url(name)
            let read = try #require(CheckKit.structure(of: [url])[url.path]?.frames)
            let info = try CheckKit.info(url).info
            #expect(
                info.frames.map(\.colors) == read.map(\.colors),
                "\(name): info says colors \(info.frames.map(\.colors)); the file has tables \(read.map(\.colors)) (nil = none)"
            )
        }
    }

    @Test("minimal.apng (RGBA with a 1-entry suggested PLTE) reports colors null", .needsFixtures)
    func fixtureTruecolorWithPalette() throws {
        let url = try Fixtures.url("apng-apngkit/animations/minimal.apng")
        let info = try CheckKit.info(url).info
        #expect(
            info.frames.allSatisfy { $0.colors == nil }, "colors \(info.frames.map(\.colors)) for a color type 6 image")
    }

    @Test("--json keys are exactly the documented ones, nulls included, in one JSON object")
    func jsonKeys() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            _ = try CheckKit.makeCraftedAnimations(in: dir)
            for name in ["gif_mixed.gif", "apng_rgba.png"] {
                let r = try Throbber.run(["info", dir.appendingPathComponent(name).path, "--json"])
                #expect(r.status == 0)
                let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
                #expect(
                    Set(object.keys) == [
                        "format", "width", "height", "pixel_type", "loop", "frame_count", "duration_ms", "sha256",
                        "frames",
                        "trim_box", "draws_nothing", "layered_still",
                    ])
                #expect((object["pixel_type"] is NSNull) == name.hasSuffix(".gif"), "\(name): \(object["pixel_type"]!)")
                let frames = try #require(object["frames"] as? [[String: Any]])
                for f in frames {
                    #expect(
                        Set(f.keys) == [
                            "frame", "x", "y", "width", "height", "delay_ms", "delay_num", "delay_den", "dispose",
                            "blend", "colors", "transparent",
                        ])
                }
                #expect(r.stdoutText.hasSuffix("}\n"))
            }
            // Nulls are written, not left out: APNG has no transparent index.
            let apng = try Throbber.run(["info", "--json", dir.appendingPathComponent("apng_rgba.png").path])
            #expect(apng.stdoutText.contains("\"transparent\": null"))
            #expect(apng.stdoutText.contains("\"colors\": null"))
        }
        // The keys are documented in --help and the man page.
        let help = try Throbber.run(["info", "--help"]).stdoutText
        let man = try String(contentsOf: Paths.manPage, encoding: .utf8)
        for key in [
            "format", "width", "height", "pixel_type", "loop", "frame_count", "duration_ms", "sha256", "frames", "x",
            "y",
            "trim_box", "draws_nothing", "layered_still",
            "delay_ms", "delay_num", "delay_den", "dispose", "blend", "colors", "transparent",
        ] {
            #expect(help.contains(key), "info --help does not mention \(key)")
            #expect(man.contains(key), "man page does not mention \(key)")
        }
    }

    @Test(
        "the table: header with format, size, APNG pixel type, frames, loop, duration; sha256; one row per frame as the file states it"
    )
    func table() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let written = try CheckKit.makeCraftedAnimations(in: dir)
            for name in [
                "gif_mixed.gif", "gif_once.gif", "gif_forever.gif", "apng_rgba.png", "apng_palette.png",
                "apng_gray.png",
            ] {
                let url = dir.appendingPathComponent(name)
                let s = written[name]!
                let frames = s.frames!
                let r = try Throbber.run(["info", url.path])
                #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderrText)")
                let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                // The table, then the trim box line (LayeredStillTests checks its box).
                #expect(lines.count == frames.count + 5 && lines.last == "", "\(name): \(lines.count) lines")
                guard lines.count == frames.count + 5 else { continue }
                #expect(lines[frames.count + 3].hasPrefix("trim box "), "\(lines[frames.count + 3])")
                let kind = s.format == "gif" ? "GIF" : "APNG"
                let loop = s.loop == 0 ? "loops forever" : s.loop == 1 ? "plays once" : "plays \(s.loop!) times"
                let total = frames.reduce(0.0) { $0 + Double($1.delay_num) * 1000 / Double($1.delay_den) }
                let ms = total == total.rounded() ? "\(Int(total))" : String(format: "%.3f", total)
                let type = s.pixel_type.map { $0 + ", " } ?? ""
                #expect(
                    lines[0]
                        == "\(url.path): \(kind) \(s.width!)x\(s.height!), \(type)\(frames.count) frames, \(loop), \(ms) ms",
                    "\(lines[0])")
                #expect(lines[1] == "sha256 \(try CheckKit.sha256sum(url))")
                #expect(
                    lines[2].split(separator: " ") == [
                        "#", "rect", "delay", "dispose", "blend", "colors", "transparent",
                    ])
                for (i, f) in frames.enumerated() {
                    let cells = lines[3 + i].split(separator: " ").map(String.init)
                    // Milliseconds in every format; an APNG delay that 3 decimals do not hold also as its fraction.
                    let ms = Double(f.delay_num) * 1000 / Double(f.delay_den)
                    let exact = (f.delay_num * 1_000_000) % f.delay_den == 0
                    let g = gcd(f.delay_num, f.delay_den)
                    let delay =
                        ms == ms.rounded()
                        ? ["\(Int(ms))", "ms"]
                        : [String(format: "%.3f", ms), "ms"]
                            + (exact ? [] : ["(\(f.delay_num / g)/\(f.delay_den / g)", "s)"])
                    // Rows are numbered from 1, as --frames counts.
                    let expected =
                        ["\(i + 1)", "\(f.width)x\(f.height)+\(f.x)+\(f.y)"] + delay
                        + [f.dispose, f.blend, f.colors.map(String.init) ?? "-", f.transparent.map(String.init) ?? "-"]
                    #expect(cells == expected, "\(name) row \(i): \(lines[3 + i])")
                }
            }
        }
    }

    @Test("output does not depend on locale or time zone")
    func environment() throws {
        try Locales.require("de_DE.UTF-8")
        try withTemporaryDirectory { (dir: URL) throws in
            _ = try CheckKit.makeCraftedAnimations(in: dir)
            for name in ["apng_rgba.png", "gif_mixed.gif"] {
                let url = dir.appendingPathComponent(name)
                for json in [true, false] {
                    let args = ["info", url.path] + (json ? ["--json"] : [])
                    let plain = try Throbber.run(args, environment: ["LANG": "C", "LC_ALL": "C", "TZ": "UTC"])
                    let other = try Throbber.run(
                        args,
                        environment: [
                            "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8",
                            "LC_NUMERIC": "de_DE.UTF-8", "TZ": "Pacific/Chatham",
                        ])
                    #expect(plain.status == 0 && plain.stdout == other.stdout)
                }
            }
        }
    }
}

/// The greatest common divisor of `a` and `b` (1 when both are 0).
private func gcd(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a == 0 ? 1 : a
}
