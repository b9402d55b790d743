import Foundation
import TestSupport
import Testing
import ThrobberKit

/// Exported SVGs pasted into one web page, as a developer inlines loaders:
/// headless Chromium draws each as its own APNG frames beside the others,
/// follows the page's dark scheme, reduced motion and `--throbber-accent`,
/// and names each loader for screen readers (svg_page.py).
@Suite("Exported SVGs inlined in one page: side by side, dark, reduced motion, recolored", .tags(.slow))
struct VectorPageTests {
    static let chromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")

    /// One loader on the page: its SVG, its reference APNG and the loop
    /// frames it is compared at.
    struct Cell {
        var name: String
        var svg: URL
        var ref: URL
        var frames: Int
        var seconds: (Int, Int)
        /// The frames' size in pixels: the SVG is shown this large.
        var pixels: (Int, Int)
        var floor: Double
    }

    /// `preset NAME --size 240` as SVG (with `svgOptions`) and as the
    /// reference APNG (with `refOptions`), in `dir`.
    static func cell(
        _ name: String, svgOptions: [String] = [], refOptions: [String] = [], tag: String = "", in dir: URL
    ) throws -> Cell {
        let svg = dir.appendingPathComponent("\(name)\(tag).svg")
        let ref = dir.appendingPathComponent("\(name)\(tag).png")
        for (out, options) in [(svg, svgOptions), (ref, refOptions)] {
            let r = try Throbber.run(["preset", name, "--size", "240", "-o", out.path, "-q"] + options)
            try #require(r.status == 0, "\(name) -o \(out.lastPathComponent): \(r.stderrText)")
        }
        let loop = try VectorSupport.apngLoop(ref)
        let floor = VectorRendererTests.presets.first { $0.name == name }?.chromiumFloor ?? 35
        return Cell(
            name: name, svg: svg, ref: ref, frames: try loopFrames(name, refOptions, in: dir), seconds: loop.seconds,
            pixels: (loop.width, loop.height), floor: floor)
    }

    /// The frames of the preset's loop: the Lottie export's `op` (the APNG
    /// merges equal neighbours; its stored frames are fewer); 1 where
    /// `--reduced-motion` holds a still, which a Lottie file cannot be.
    static func loopFrames(_ name: String, _ options: [String], in dir: URL) throws -> Int {
        let lottie = dir.appendingPathComponent("\(name)-loop.json")
        let r = try Throbber.run(["preset", name, "--size", "240", "-o", lottie.path, "-q"] + options)
        if r.status == 64, options.contains("--reduced-motion"), r.stderrText.contains("still frame") { return 1 }
        try #require(r.status == 0, "\(r.stderrText)")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lottie)) as? [String: Any])
        return try #require(top["op"] as? Int)
    }

    struct Page: Decodable {
        var boxes: [[Double]]
        var animations: Int
        var names: [String]
        var paused: Int
    }

    /// Draws `cells` in one page (every frame time of each when `seek`,
    /// else as the page plays itself), with `media` features and `css`.
    static func draw(
        _ cells: [Cell], media: [String: String] = [:], css: String = "", seek: Bool = true, in dir: URL
    ) throws -> (Page, URL) {
        let svgs: [[String: Any]] = cells.map { c in
            [
                "file": c.svg.path, "width": c.pixels.0, "height": c.pixels.1,
                "times": (0..<c.frames).map { [$0 * c.seconds.0, c.frames * c.seconds.1] },
            ]
        }
        let spec: [String: Any] = ["svgs": svgs, "scale": 1, "media": media, "css": css, "seek": seek]
        let specFile = dir.appendingPathComponent("page.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        let out = dir.appendingPathComponent("page")
        let page = try JSONDecoder().decode(Page.self, from: Pillow.script("svg_page.py", [specFile.path, out.path]))
        return (page, out)
    }

    /// Every cell's shots against its reference, composited on `on`.
    static func expectMatches(_ cells: [Cell], _ out: URL, on: String = "255,255,255", what: String) throws {
        for (i, c) in cells.enumerated() {
            let r = try VectorSupport.compare(c.ref, out.appendingPathComponent("svg_\(i)"), frames: c.frames, on: on)
            #expect(r.minPsnr >= c.floor, "\(c.name) (\(what), loader \(i + 1) on the page): \(r.worst)")
        }
    }

    @Test(
        "three presets and one of them twice share a page, each drawn as its own frames, each named \"Loading\"",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func sideBySide() throws {
        try withTemporaryDirectory { dir in
            let cells = try ["spinner", "ring", "square-spin", "spinner"].enumerated().map { i, name in
                try Self.cell(name, tag: "-\(i)", in: dir)
            }
            let (page, out) = try Self.draw(cells, in: dir)
            #expect(page.names == Array(repeating: "Loading", count: 4), "accessible names: \(page.names)")
            try Self.expectMatches(cells, out, what: "inlined with three others")
        }
    }

    @Test(
        "under prefers-color-scheme: dark every preset is its --theme dark frames",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func darkScheme() throws {
        try withTemporaryDirectory { dir in
            let cells = try PresetCatalog.all.map { p in
                try Self.cell(p.name, refOptions: ["--theme", "dark"], in: dir)
            }
            let (_, out) = try Self.draw(cells, media: ["prefers-color-scheme": "dark"], in: dir)
            try Self.expectMatches(cells, out, on: "30,30,30", what: "dark scheme")
        }
    }

    @Test(
        "under prefers-reduced-motion: reduce every preset is its --reduced-motion frames: a still, or slowed",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func reducedMotion() throws {
        try withTemporaryDirectory { dir in
            let cells = try PresetCatalog.all.map { p in
                try Self.cell(p.name, refOptions: ["--reduced-motion"], in: dir)
            }
            // A still is one frame, shown as the page shows it (no seeking: it must stand still by itself).
            let still = cells.filter { $0.frames == 1 }
            let moving = cells.filter { $0.frames > 1 }
            #expect(!still.isEmpty && !moving.isEmpty, "stills \(still.map(\.name)), slowed \(moving.map(\.name))")
            let media = ["prefers-reduced-motion": "reduce"]
            let (page, stillOut) = try Self.draw(still, media: media, seek: false, in: dir)
            #expect(page.paused == page.animations, "\(page.animations - page.paused) animations still play")
            try Self.expectMatches(still, stillOut, what: "reduced motion, held")
            let slowDir = dir.appendingPathComponent("slow")
            try FileManager.default.createDirectory(at: slowDir, withIntermediateDirectories: true)
            let (_, slowOut) = try Self.draw(moving, media: media, in: slowDir)
            try Self.expectMatches(moving, slowOut, what: "reduced motion, slowed")
        }
    }

    @Test(
        "--throbber-accent set by the page recolors a loader as --color does",
        .enabled(if: chromium || Fixtures.onCI, "skipped: /usr/bin/chromium is not installed"))
    func pageAccent() throws {
        try withTemporaryDirectory { dir in
            let cells = try ["ring", "chase"].map { try Self.cell($0, refOptions: ["--color", "#0a84ff"], in: dir) }
            let (_, out) = try Self.draw(cells, css: ":root{--throbber-accent:#0a84ff}", in: dir)
            try Self.expectMatches(cells, out, what: "--throbber-accent #0a84ff")
        }
    }

    @Test("every preset's SVG, Lottie and dotLottie file is smaller than its GIF")
    func smallerThanGIF() throws {
        try withTemporaryDirectory { dir in
            for p in PresetCatalog.all {
                var sizes: [String: Int] = [:]
                for ext in ["gif", "svg", "json", "lottie"] {
                    let out = dir.appendingPathComponent("\(p.name).\(ext)")
                    let r = try Throbber.run(["preset", p.name, "-o", out.path, "-q"])
                    try #require(r.status == 0, "\(r.stderrText)")
                    sizes[ext] = try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int
                }
                let gif = try #require(sizes["gif"])
                for ext in ["svg", "json", "lottie"] {
                    #expect(try #require(sizes[ext]) < gif, "\(p.name): .\(ext) \(sizes[ext]!) bytes, GIF \(gif)")
                }
            }
        }
    }
}
