import Foundation
import TestSupport
import Testing

/// "For every example, every preset and the ffmpeg test-source corpora, in
/// every format: the composited frames decoded by Pillow, by ffmpeg and by
/// ImageMagick (-coalesce) are identical to each other and to what we meant
/// (exact for lossless APNG and WebP and for few-color GIFs), and the frame
/// durations they report match ours." — here for the presets and
/// examples/*.json; see Tests/tools/conformance.py for how each check is made
/// (a WebP is read by Pillow, Chromium, and dwebp and ffmpeg frame by frame).
@Suite("Conformance: presets and examples decode the same in Pillow, ffmpeg, ImageMagick and Chromium", .tags(.slow))
struct ConformancePresetTests {
    /// Every preset `throbber presets` lists; `everyPresetCovered` keeps it complete.
    static let presets = [
        "ease", "dots", "dots-flip", "spinner", "ring", "dual-ring", "chase", "orbit", "pulse",
        "ripple", "heart", "square-spin", "grid", "bars", "wave", "bounce", "ellipsis", "pacman", "text-wave",
        "label", "checkmark", "spinner-check",
    ]

    static let examples: [String] = {
        let dir = Paths.repository.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test("the presets checked here are exactly those `throbber presets` lists")
    func everyPresetCovered() throws {
        #expect(try SceneCLI.presetNames().sorted() == Self.presets.sorted())
    }

    @Test("the examples folder has the five example configs")
    func examplesFound() {
        #expect(
            Self.examples == ["dots-flip.json", "dots.json", "dropdown.json", "ease.json", "heart.json"],
            "\(Self.examples)")
    }

    @Test(
        "preset as APNG, GIF and WebP: decoders agree exactly; APNG delays are whole slots of the cycle; GIF = APNG after the alpha policy; WebP = APNG",
        arguments: presets)
    func preset(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let config = dir.appendingPathComponent("\(name).json")
            let printed = try Throbber.run(["preset", name, "--print-config"])
            #expect(printed.status == 0, "\(printed.stderrText)")
            try printed.stdout.write(to: config)
            let apng = dir.appendingPathComponent("\(name).png")
            let gif = dir.appendingPathComponent("\(name).gif")
            let webp = dir.appendingPathComponent("\(name).webp")
            try Conformance.make(["preset", name], outputs: [apng, gif, webp])
            let report = try Conformance.check(apng: apng, gif: gif, webp: webp, reference: .config(config))
            Conformance.expectConforms(report, "preset \(name)", webp: true)
            // The cycle is sampled into whole slots and every one is shown.
            let t = try #require(report.timeline, "no timeline for \(name)")
            #expect(t.slots >= 2)
            // Lossless APNG keeps partial alpha: the presets draw soft edges
            // on a transparent canvas, so the type has alpha: RGBA, gray with
            // alpha, or a palette with tRNS when the colors fit (issue #16);
            // the decoders' exact agreement above shows nothing was lost.
            #expect(
                [3, 4, 6].contains(report.apng?.colorType ?? -1),
                "preset \(name): APNG color type \(report.apng?.colorType ?? -1)")
        }
    }

    @Test(
        "examples/*.json as APNG, GIF and WebP: the same checks; the frames example is compared with its source files",
        arguments: examples)
    func example(_ file: String) throws {
        let config = Paths.repository.appendingPathComponent("examples/\(file)")
        try withTemporaryDirectory { dir in
            let stem = (file as NSString).deletingPathExtension
            let apng = dir.appendingPathComponent("\(stem).png")
            let gif = dir.appendingPathComponent("\(stem).gif")
            let webp = dir.appendingPathComponent("\(stem).webp")
            try Conformance.make(["render", config.path], outputs: [apng, gif, webp])
            let report = try Conformance.check(apng: apng, gif: gif, webp: webp, reference: .config(config))
            Conformance.expectConforms(report, "examples/\(file)", webp: true)
            if file == "dropdown.json" {
                // 60 source files, each shown twice at 10 fps: 1/5 s a frame
                // (identical neighbours would merge; these 60 all differ).
                #expect(report.sources == 60)
                #expect(report.apng?.delays?.allSatisfy { $0 == "1/5" } == true, "\(report.apng?.delays ?? [])")
                #expect(report.gif?.delaysCs?.reduce(0, +) == 1200, "\(report.gif?.delaysCs ?? [])")
                #expect(report.webp?.delaysMs?.allSatisfy { $0 == 200 } == true, "\(report.webp?.delaysMs ?? [])")
            } else {
                #expect(report.timeline != nil)
            }
        }
    }
}
