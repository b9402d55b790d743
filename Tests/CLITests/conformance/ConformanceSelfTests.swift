import Foundation
import TestSupport
import Testing

/// The conformance checker must be able to fail: each case damages a good
/// file (or the reference) in one known way with Tests/tools/conformance_mutate.py
/// and expects conformance.py to name exactly that damage.
@Suite("Conformance checker: it notices damage, so a pass means something", .tags(.slow))
struct ConformanceSelfTests {
    static let life = ConformanceCorpusTests.Corpus(
        "life", "life=size=64x48:rate=25:seed=3:ratio=0.3",
        frames: 8, fewColors: true, colorType: 2)

    static func mutate(_ arguments: [String]) throws {
        _ = try Pillow.script("conformance_mutate.py", arguments)
    }

    enum Damage: String, CaseIterable, Sendable {
        case none, apngDelay, gifDelay, webpDelay, apngSequence, sourcePixel
    }

    @Test(
        "a damaged APNG, GIF, WebP or reference is reported, each decoder naming what it saw",
        arguments: Damage.allCases)
    func damage(_ damage: Damage) throws {
        try withTemporaryDirectory { dir in
            let frames = dir.appendingPathComponent("frames")
            try ConformanceCorpusTests.generate(Self.life, in: frames)
            let apng = dir.appendingPathComponent("a.png")
            let gif = dir.appendingPathComponent("a.gif")
            let webp = dir.appendingPathComponent("a.webp")
            try Conformance.make(["encode", frames.path, "--fps", "25"], outputs: [apng, gif, webp])
            var expected: [String] = []
            switch damage {
            case .none:
                break
            case .apngDelay:
                try Self.mutate(["apng-delay", apng.path, "3", "2", "25"])
                expected = [
                    "APNG fcTL delays: frame 3: fcTL 2/25 s, expected 1/25 s",
                    "APNG: pillow durations: frame 3", "APNG: ffmpeg durations: frame 3",
                    "APNG: chromium durations: frame 3",
                ]
            case .gifDelay:
                try Self.mutate(["gif-delay", gif.path, "3", "5"])
                expected = [
                    "GIF: pillow durations: frame 3: 50, expected 40", "GIF: ffmpeg durations: frame 3",
                    "GIF: imagemagick durations: frame 3: 5, expected 4", "GIF: chromium durations: frame 3",
                ]
            case .webpDelay:
                try Self.mutate(["webp-delay", webp.path, "3", "50"])
                expected = [
                    "WebP ANMF durations: frame 3: 50 ms, expected 40 ms",
                    "WebP: pillow durations: frame 3: 50, expected 40", "WebP: dwebp durations: frame 3",
                    "WebP: ffmpeg durations: frame 3", "WebP: chromium durations: frame 3",
                ]
            case .apngSequence:
                try Self.mutate(["apng-sequence", apng.path])
                expected = ["APNG structure: fdAT sequence number"]
            case .sourcePixel:
                try Self.mutate([
                    "pixel", frames.appendingPathComponent("0006.png").path, "10", "10", "255", "0", "0", "255",
                ])
                expected = [
                    "APNG vs the source frames: frame 5 (slot 5): 1 pixels differ",
                    "GIF vs the source frames (few colors: must be exact): frame 5 (slot 5): 1 pixels differ",
                    "WebP vs the source frames (lossless: must be exact): frame 5 (slot 5): 1 pixels differ",
                ]
            }
            let report = try Conformance.check(
                apng: apng, gif: gif, webp: webp, reference: .folder(frames, fps: "25"))
            if damage == .none {
                Conformance.expectConforms(report, "undamaged life", webp: true)
            } else {
                for text in expected {
                    #expect(
                        report.problems.contains { $0.hasPrefix(text) },
                        "\(damage): no problem starting '\(text)' in \(report.problems)")
                }
            }
        }
    }

    @Test("a layers config: an APNG delay that is not a whole number of slots of the cycle is reported")
    func configSlots() throws {
        let config = Paths.repository.appendingPathComponent("examples/dots.json")
        try withTemporaryDirectory { dir in
            let apng = dir.appendingPathComponent("dots.png")
            try Conformance.make(["render", config.path], outputs: [apng])
            try Self.mutate(["apng-delay", apng.path, "2", "1", "30"])
            let report = try Conformance.check(apng: apng, gif: nil, reference: .config(config))
            #expect(
                report.problems.contains {
                    $0.hasPrefix("APNG timing: frame 2 lasts 1/30 s, not a whole number of 1/40 s slots")
                },
                "\(report.problems)")
        }
    }
}
