import Foundation
import TestSupport
import Testing

/// svg_page.py must be able to pass and to fail: hand-written SVGs of
/// VectorToolSelfTests' turning rect, pasted into one page, match
/// Throbber's APNG of that config when right and not when turned only half
/// as far; the emulated media features reach the page's rules; the
/// accessible names are Chromium's, empty where a file has no title.
@Suite("svg_page.py: right SVGs pass, wrong ones fail, media features and names are Chromium's", .tags(.slow))
struct SVGPageToolSelfTests {
    static let chromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")

    /// The turning rect with `extra` CSS and root attributes, in `dir`.
    /// `tag` renames its keyframes and class: names in a page are global,
    /// so two files on one page need their own.
    static func svg(
        _ name: String, to: Int, tag: String = "", css: String = "", root: String = "", in dir: URL
    ) throws -> URL {
        var text = VectorToolSelfTests.svg(from: 0, to: to)
        text = text.replacingOccurrences(of: "@keyframes r{", with: "@keyframes r\(tag){")
            .replacingOccurrences(of: ".a{animation:r ", with: ".a\(tag){animation:r\(tag) ")
            .replacingOccurrences(of: "class=\"a\"", with: "class=\"a\(tag)\"")
        text = text.replacingOccurrences(of: "</style>", with: css + "</style>")
        text = text.replacingOccurrences(of: "viewBox=\"0 0 40 40\"", with: "viewBox=\"0 0 40 40\"" + root)
        let file = dir.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Draws `files` (each 80×80 px, the APNG's size, at the 10 frame times)
    /// with `media`; returns the page's report and its shots folder.
    static func draw(_ files: [URL], media: [String: String] = [:], seek: Bool = true, in dir: URL) throws -> (
        VectorPageTests.Page, URL
    ) {
        let svgs: [[String: Any]] = files.map {
            ["file": $0.path, "width": 80, "height": 80, "times": (0..<10).map { [$0, 10] }]
        }
        let spec: [String: Any] = ["svgs": svgs, "media": media, "seek": seek]
        let specFile = dir.appendingPathComponent("page.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        let out = dir.appendingPathComponent("shots")
        let page = try JSONDecoder().decode(
            VectorPageTests.Page.self, from: Pillow.script("svg_page.py", [specFile.path, out.path]))
        return (page, out)
    }

    @Test(
        "the right SVG matches the APNG beside a wrong one, which does not; names come from <title>",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func rightAndWrong() throws {
        try withTemporaryDirectory { dir in
            let ref = try VectorToolSelfTests.reference(in: dir)
            let right = try Self.svg("right.svg", to: 90, root: #" role="img""#, in: dir)
            let wrong = try Self.svg("wrong.svg", to: 45, tag: "w", in: dir)
            try String(contentsOf: right, encoding: .utf8)
                .replacingOccurrences(of: "<style>", with: "<title>Turning</title><style>")
                .write(to: right, atomically: true, encoding: .utf8)
            let (page, out) = try Self.draw([right, wrong], in: dir)
            #expect(page.names == ["Turning", ""], "\(page.names)")
            let good = try VectorSupport.compare(ref, out.appendingPathComponent("svg_0"), frames: 10)
            let bad = try VectorSupport.compare(ref, out.appendingPathComponent("svg_1"), frames: 10)
            #expect(good.minPsnr >= 35, "right: \(good.worst)")
            #expect(bad.minPsnr < 25, "wrong: \(bad.worst)")
        }
    }

    @Test(
        "emulated dark scheme and reduced motion reach the page: a dark rule recolors, a reduced rule pauses",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func mediaFeatures() throws {
        try withTemporaryDirectory { dir in
            let ref = try VectorToolSelfTests.reference(in: dir)
            let css =
                "@media (prefers-color-scheme:dark){rect{fill:#cc6633}}"
                + "@media (prefers-reduced-motion:reduce){.a{animation-play-state:paused}}"
            let file = try Self.svg("media.svg", to: 90, css: css, in: dir)
            let (light, lightOut) = try Self.draw([file], in: dir)
            #expect(light.paused == 0)
            #expect(try VectorSupport.compare(ref, lightOut.appendingPathComponent("svg_0"), frames: 10).minPsnr >= 35)
            let darkDir = dir.appendingPathComponent("dark")
            try FileManager.default.createDirectory(at: darkDir, withIntermediateDirectories: true)
            let (_, darkOut) = try Self.draw([file], media: ["prefers-color-scheme": "dark"], in: darkDir)
            let dark = try VectorSupport.compare(ref, darkOut.appendingPathComponent("svg_0"), frames: 10)
            #expect(dark.minPsnr < 30, "the dark rule did not apply: \(dark.worst)")
            let stillDir = dir.appendingPathComponent("still")
            try FileManager.default.createDirectory(at: stillDir, withIntermediateDirectories: true)
            let (still, _) = try Self.draw(
                [file], media: ["prefers-reduced-motion": "reduce"], seek: false, in: stillDir)
            #expect(still.animations == 1 && still.paused == 1, "\(still)")
        }
    }
}
