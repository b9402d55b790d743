import Foundation
import TestSupport
import Testing

/// "A real browser: `throbber gallery DIR` writes every preset as GIF,
/// APNG, WebP and SVG plus an index.html; a test opens it in headless Chromium (Debian's
/// chromium), checks that each image loaded with the right natural size, and
/// checks from a screenshot that every animation is drawn at its place."
/// Every preset shows on the light page and on the dark one (#1e1e1e),
/// where the GIF is NAME-dark.gif, matted onto the dark color. The SVG,
/// drawn by Chromium itself, is checked for its size (points, shown at the
/// frames' pixels) and for ink at its place.
/// The browser side is Tests/tools/gallery_check.py (DevTools over a pipe).
@Suite("Gallery in headless Chromium", .tags(.slow))
struct GalleryBrowserTests {
    struct Result: Decodable {
        struct Image: Decodable {
            var id: String
            var src: String
            var natural: [Int]
            var attributes: [Int]
            var file: [Int]?
            var rect: [Double]
            /// Per screenshot: the frame drawn there (nil: none of them).
            var shown: [Int?]?
            var ink: [Bool]?
            /// Per spare screenshot, when no screenshot held ink (frames that blink).
            var spare: [Bool]?
            /// "svg" for an SVG, checked by size and ink only.
            var kind: String?
            /// SVG: per screenshot, PSNR against the closest APNG frame.
            var psnr: [Double]?
        }
        var images: [Image]
        var changed: [String]
        var problems: [String]
    }

    @Test(
        "every preset as GIF, APNG, WebP and SVG loads at its natural size and is drawn at its place (frame-exact but the SVG); the animations run"
    )
    func galleryInChromium() throws {
        try withTemporaryDirectory { dir in
            let gallery = dir.appendingPathComponent("gallery")
            let r = try Throbber.run(["gallery", gallery.path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            let presets = ConformancePresetTests.presets
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: gallery.path))
            let extensions = ["gif": "gif", "apng": "png", "webp": "webp", "svg": "svg"]
            let wanted = Set(
                presets.flatMap { name in extensions.values.map { "\(name).\($0)" } + ["\(name)-dark.gif"] }
                    + ["index.html"])
            #expect(files == wanted, "gallery wrote \(files.sorted())")

            let out = try Command.run(
                Pillow.python,
                [
                    Paths.tools.appendingPathComponent("gallery_check.py").path, gallery.path,
                    "--shots", "2", "--gap", "0.7",
                ], timeout: 180)
            guard out.status == 0 else {
                throw HarnessError("gallery_check.py failed (\(out.status)): \(out.stderrText)")
            }
            let result = try JSONDecoder().decode(Result.self, from: out.stdout)
            #expect(
                result.problems.isEmpty,
                "\(result.problems.count) problems:\n\(result.problems.joined(separator: "\n"))")

            // One <img> per preset, format and page, with the ids and files the page promises.
            let ids = presets.flatMap { name in
                extensions.keys.flatMap { ["\(name)-\($0)", "\(name)-\($0)-dark"] }
            }
            #expect(result.images.map(\.id).sorted() == ids.sorted())
            // The right size: the preset's canvas in points times its scale
            // (an SVG's natural size is the points).
            var canvas: [String: [Int]] = [:]
            var points: [String: [Int]] = [:]
            for name in presets {
                let printed = try Throbber.run(["preset", name, "--print-config"])
                let config = try JSONSerialization.jsonObject(with: printed.stdout) as? [String: Any]
                let c = try #require(config?["canvas"] as? [String: Any], "no canvas in \(name)'s config")
                let scale = (c["scale"] as? Double) ?? 1
                canvas[name] = [
                    Int(((c["width"] as? Double) ?? 0) * scale), Int(((c["height"] as? Double) ?? 0) * scale),
                ]
                points[name] = [Int((c["width"] as? Double) ?? 0), Int((c["height"] as? Double) ?? 0)]
            }
            for image in result.images {
                let dark = image.id.hasSuffix("-dark")
                let id = dark ? String(image.id.dropLast(5)) : image.id
                let format = String(id.split(separator: "-").last ?? "")
                let name = String(id.dropLast(format.count + 1))
                let file = dark && format == "gif" ? "\(name)-dark.gif" : "\(name).\(extensions[format] ?? "?")"
                #expect(image.src == file, "\(image.id) shows \(image.src)")
                if format == "svg" {
                    #expect(image.kind == "svg")
                    #expect(
                        image.natural == points[name] && image.file == points[name],
                        "\(image.id): natural size \(image.natural), file \(image.file ?? []), canvas \(points[name] ?? []) pt"
                    )
                    #expect(image.attributes == canvas[name], "\(image.id): shown at \(image.attributes)")
                    #expect(
                        ((image.ink ?? []) + (image.spare ?? [])).contains(true),
                        "\(image.id): no ink in the screenshots (PSNR against the APNG: \(image.psnr ?? []))")
                    continue
                }
                #expect(
                    image.natural == canvas[name],
                    "\(image.id): natural size \(image.natural), the config's canvas is \(canvas[name] ?? [])")
                #expect(
                    image.natural == image.file && image.natural == image.attributes
                        && image.natural.allSatisfy { $0 > 0 },
                    "\(image.id): natural \(image.natural), file \(image.file ?? []), attributes \(image.attributes)")
                #expect(
                    image.shown?.count == 2 && image.shown?.allSatisfy { $0 != nil } == true,
                    "\(image.id): screenshot regions match frames \(image.shown ?? [])")
                #expect(
                    ((image.ink ?? []) + (image.spare ?? [])).contains(true),
                    "\(image.id): no ink in the screenshots")
            }
            // The page's images are the preset command's files, byte for byte
            // (so the conformance tests of `throbber preset` cover them too).
            for name in presets {
                let files = extensions.values.sorted().map { dir.appendingPathComponent("\(name).\($0)") }
                try Conformance.make(["preset", name], outputs: files)
                for file in files {
                    #expect(
                        try Data(contentsOf: file)
                            == Data(contentsOf: gallery.appendingPathComponent(file.lastPathComponent)),
                        "\(file.lastPathComponent) differs from `throbber preset \(name)`")
                }
                let dark = dir.appendingPathComponent("\(name)-dark.gif")
                try Conformance.make(["preset", name, "--matte", "#1e1e1e"], outputs: [dark])
                #expect(
                    try Data(contentsOf: dark) == Data(contentsOf: gallery.appendingPathComponent("\(name)-dark.gif")),
                    "\(name)-dark.gif differs from `throbber preset \(name) --matte '#1e1e1e'`")
            }
            // Animations run: most regions show another frame 0.7 s later.
            #expect(
                result.changed.count * 2 > result.images.count, "only \(result.changed) changed between the screenshots"
            )
        }
    }
}
