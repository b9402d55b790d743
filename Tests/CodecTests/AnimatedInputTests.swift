import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Animated GIF and APNG input: every valid fixture in ../shared/fixtures
/// gif-* and apng-* is composited as a viewer shows it, and compared with
/// independent decoders (anim_reference.py: its own spec decoder for APNG,
/// its own LZW decoder with browser compositing for GIF, and Pillow). The
/// invalid ones (SOURCES.md) are refused with a data error naming the file,
/// the decompression bombs quickly.
@Suite("Animated input", .tags(.slow))
struct AnimatedInputTests {
    // MARK: Fixture lists (SOURCES.md)

    static let apngFolders = AnimationFixtures.apngFolders
    static let invalidAPNG = Set(AnimationFixtures.invalidAPNG)
    static let invalidGIF = Set(AnimationFixtures.invalidGIF)

    static func files(in folders: [String], suffixes: [String]) -> [String] {
        folders.flatMap { folder in
            suffixes.flatMap { Fixtures.names(in: folder, suffix: $0).map { "\(folder)/\($0)" } }
        }.sorted()
    }

    static let allAPNG = files(in: apngFolders, suffixes: [".png", ".apng"])
    static let validAPNG = allAPNG.filter { !invalidAPNG.contains($0) }
    static let allGIF = files(in: ["gif-giflib", "gif-image-gif", "gif-pillow"], suffixes: [".gif"])
    static let validGIF = allGIF.filter { !invalidGIF.contains($0) }

    @Test(
        "the fixture lists are complete: 124 APNG files (99 valid), 60 GIF files (57 valid), every invalid one among them",
        Fixtures.needed)
    func fixtureListsAreComplete() throws {
        // A missing folder would leave the argument lists above empty and the
        // sweeps below would run no case; here it fails (on CI) or skips.
        for folder in Self.apngFolders + ["gif-giflib", "gif-image-gif", "gif-pillow"] {
            _ = try Fixtures.folder(folder)
        }
        // ls | wc -l of each folder: apng-pillow 54, apngkit/spec 61, apngkit/animations 8, apng-image-png 1;
        // gif-giflib 9, gif-image-gif 12, gif-pillow 39.
        #expect(Self.allAPNG.count == 124, "\(Self.allAPNG.count) APNG files")
        #expect(Self.validAPNG.count == 99, "\(Self.validAPNG.count) valid APNG files")
        #expect(Self.allGIF.count == 60, "\(Self.allGIF.count) GIF files")
        #expect(Self.validGIF.count == 57, "\(Self.validGIF.count) valid GIF files")
        #expect(
            Self.invalidAPNG.isSubset(of: Set(Self.allAPNG)) && Self.invalidGIF.isSubset(of: Set(Self.allGIF)),
            "an invalid fixture named in AnimationFixtures is not in its folder")
    }

    /// Fixtures where Pillow 9.4 (Debian 12) does not show what the APNG
    /// spec says; there the spec decoder is the reference, and ffmpeg a
    /// second opinion (tolerance: ffmpeg truncates in blend OVER).
    static let pillowDeviatesAPNG: [String: (reason: String, ffmpegTolerance: Int?)] = [
        "apng-pillow/blend_op_over_near_transparent.png": (
            "Pillow blends OVER by paste-with-mask: alpha becomes a·a, not Porter-Duff over", 0
        ),
        "apng-apngkit/spec/021.png": ("same file as blend_op_over_near_transparent", 0),
        "apng-apngkit/spec/022.png": ("partial-alpha OVER (paste-with-mask)", 0),
        "apng-apngkit/spec/023.png": ("partial-alpha OVER (paste-with-mask)", 0),
        "apng-pillow/mode_16bit.png": (
            "16-bit samples and partial-alpha OVER (paste-with-mask); ffmpeg shows one frame", nil
        ),
        "apng-apngkit/spec/033.png": ("same file as mode_16bit", nil),
        "apng-pillow/mode_grayscale_alpha.png": ("partial-alpha OVER (paste-with-mask)", 0),
        "apng-apngkit/spec/035.png": ("same file as mode_grayscale_alpha", 0),
        "apng-pillow/mode_palette_1bit_alpha.png": ("tRNS 128 blended OVER (paste-with-mask)", 0),
        "apng-apngkit/spec/038.png": ("same file as mode_palette_1bit_alpha", 0),
        "apng-apngkit/animations/over_none.apng": ("partial-alpha OVER (paste-with-mask)", 2),
        "apng-apngkit/animations/over_background.apng": ("partial-alpha OVER (paste-with-mask)", 2),
        "apng-apngkit/animations/over_previous.apng": ("partial-alpha OVER (paste-with-mask)", 2),
        "apng-apngkit/animations/tRNS_alpha.apng": ("RGB + tRNS: Pillow disposes to opaque black, not transparent", 0),
        "apng-pillow/syntax_num_frames_low.png": (
            "Pillow plays num_frames frames; the spec calls a num_frames that differs from the fcTL count an error (show the default image)",
            nil
        ),
        "apng-apngkit/spec/047.png": ("same file as syntax_num_frames_low", nil),
        "apng-apngkit/spec/059.png": (
            "Pillow starts the canvas from the hidden default image instead of transparent black", 0
        ),
    ]

    /// GIF fixtures where Pillow 9.4 differs from browsers.
    static let pillowDeviatesGIF: [String: String] = [
        "gif-pillow/dispose_bgnd.gif":
            "Pillow fills disposal 2 with the background color; browsers clear to transparent",
        "gif-pillow/dispose_bgnd_rgba.gif":
            "Pillow fills disposal 2 with the background color; browsers clear to transparent",
        "gif-pillow/test_extents_transparency.gif":
            "a second GIF is glued after the first image without a trailer; Pillow skips the junk and reads its frame, Firefox/Chromium stop there",
        "gif-pillow/background_outside_palette.gif": "Pillow 9.4 raises TypeError (fixed in later Pillow)",
        "gif-pillow/no_palette_with_transparency_after_rgb.gif": "Pillow 9.4 raises ValueError (fixed in later Pillow)",
    ]

    static func path(_ fixture: String) -> String { Fixtures.root.appendingPathComponent(fixture).path }

    /// ThrobberKit's view of a file: an animation's composited frames, or a
    /// still as one frame with no duration.
    static func ours(_ path: String) throws -> (frames: [[UInt8]], durations: [Rational?], loop: Int?, width: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        if let a = try DecodedAnimation.decode(bytes, name: path) {
            return (a.frames.map(normalized), a.durations, a.loop, a.width)
        }
        let still = try ImageDecoder.decode(bytes, name: path)
        return ([normalized(still)], [nil], nil, still.width)
    }

    /// FileFrameSource (what `encode` and frame folders use) gives the same
    /// frames and durations as the decoder.
    static func expectFileSource(
        _ path: String, matches o: (frames: [[UInt8]], durations: [Rational?], loop: Int?, width: Int),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let source = try FileFrameSource(files: [path])
        #expect(
            source.count == o.frames.count, "FileFrameSource: \(source.count) frames", sourceLocation: sourceLocation)
        for i in 0..<min(source.count, o.frames.count) {
            #expect(
                source.duration(at: i) == o.durations[i], "FileFrameSource duration \(i)",
                sourceLocation: sourceLocation)
            if normalized(try source.frame(at: i)) != o.frames[i] {
                Issue.record(
                    "FileFrameSource frame \(i) differs from the decoded animation", sourceLocation: sourceLocation)
                return
            }
        }
    }

    // MARK: APNG

    @Test(
        "every valid APNG fixture is composited as the APNG spec says (own spec decoder, exact), with its delays and num_plays",
        Fixtures.needed, arguments: validAPNG)
    func apngMatchesSpec(_ fixture: String) throws {
        let path = Self.path(fixture)
        let o = try Self.ours(path)
        let spec = try ReferenceAnimation(.spec, path: path)
        expectFrames(o.frames, equal: spec.frames, width: spec.width, "\(fixture) vs spec decoder")
        if spec.fractions.first ?? nil == nil {
            #expect(
                o.durations.allSatisfy { $0 == nil },
                "\(fixture): the file is a still for the spec, ours has durations \(o.durations)")
        } else {
            #expect(
                o.durations == spec.fractions,
                "\(fixture): durations \(o.durations), delay_num/delay_den say \(spec.fractions)")
            #expect(
                o.loop == spec.loop,
                "\(fixture): loop \(String(describing: o.loop)), num_plays \(String(describing: spec.loop))")
        }
        try Self.expectFileSource(path, matches: o)
    }

    @Test(
        "every valid APNG fixture matches Pillow exactly, except where Pillow departs from the spec (then ffmpeg)",
        Fixtures.needed, arguments: validAPNG)
    func apngMatchesPillow(_ fixture: String) throws {
        let path = Self.path(fixture)
        let o = try Self.ours(path)
        if let deviation = Self.pillowDeviatesAPNG[fixture] {
            guard let tolerance = deviation.ffmpegTolerance else { return }
            let ffmpeg = try ReferenceAnimation(.ffmpeg, path: path)
            #expect(ffmpeg.frames.count == o.frames.count, "\(fixture): ffmpeg shows \(ffmpeg.frames.count) frames")
            for (i, (a, e)) in zip(o.frames, ffmpeg.frames).enumerated() {
                if !expectPixels(a, e, width: ffmpeg.width, tolerance: tolerance, "\(fixture) frame \(i) vs ffmpeg") {
                    break
                }
            }
            return
        }
        let pillow = try ReferenceAnimation(.pillow, path: path)
        expectFrames(o.frames, equal: pillow.frames, width: pillow.width, "\(fixture) vs Pillow")
        for (i, (ours, theirs)) in zip(o.durations, pillow.seconds).enumerated() {
            guard let ours else { continue }
            let seconds = Double(ours.numerator) / Double(ours.denominator)
            #expect(
                abs(seconds - (theirs ?? -1)) < 1e-9,
                "\(fixture) frame \(i): \(ours) s, Pillow \(String(describing: theirs)) s")
        }
    }

    @Test("APNG dispose and blend cases show what Philip Taylor's suite says they should", Fixtures.needed)
    func apngSpecSuiteFinalFrames() throws {
        // The last frame of each test in the suite's own words ("This should be ...").
        let green: [UInt8] = [0, 255, 0, 255]
        let clear: [UInt8] = [0, 0, 0, 0]
        let solidGreen = [
            "001", "002", "003", "004", "005", "006", "007", "009", "010", "011", "013", "016", "017", "020", "021",
            "024", "036", "037",
        ]
        let transparent = ["008", "012", "014", "018"]
        for n in solidGreen + transparent {
            let o = try Self.ours(Self.path("apng-apngkit/spec/\(n).png"))
            let last = try #require(o.frames.last)
            let want = solidGreen.contains(n) ? green : clear
            let off = stride(from: 0, to: last.count, by: 4).filter { Array(last[$0..<$0 + 4]) != want }.count
            #expect(off == 0, "\(n).png: \(off) pixels of the last frame are not \(want)")
        }
        // 015: "a solid blue rectangle containing a smaller transparent rectangle".
        let o = try Self.ours(Self.path("apng-apngkit/spec/015.png"))
        let last = try #require(o.frames.last)
        for y in 0..<64 {
            for x in 0..<128 {
                let inner = x >= 32 && x < 96 && y >= 16 && y < 48
                let p = Array(last[(y * 128 + x) * 4..<(y * 128 + x) * 4 + 4])
                if inner {
                    #expect(p == clear, "015 (\(x),\(y)) = \(p)")
                } else if p[2] != 255 || p[3] != 255 {
                    Issue.record("015 (\(x),\(y)) = \(p), expected blue")
                    return
                }
            }
        }
    }

    @Test(
        "APNG files the spec calls erroneous before the animation starts show their default image (Philip Taylor's suite: 'the default image (solid green) or an error')",
        Fixtures.needed, arguments: ["039", "040", "041", "046", "047", "050"])
    func apngDefaultImageCases(_ n: String) throws {
        let path = Self.path("apng-apngkit/spec/\(n).png")
        let o = try Self.ours(path)
        #expect(o.frames.count == 1, "\(n).png: \(o.frames.count) frames, expected the default image alone")
        let green: [UInt8] = [0, 255, 0, 255]
        for (i, f) in o.frames.enumerated() {
            let red = stride(from: 0, to: f.count, by: 4).filter { f[$0] == 255 && f[$0 + 1] == 0 && f[$0 + 3] == 255 }
                .count
            let notGreen = stride(from: 0, to: f.count, by: 4).filter { Array(f[$0..<$0 + 4]) != green }.count
            #expect(
                notGreen == 0,
                "\(n).png frame \(i): \(notGreen) pixels are not green (\(red) are red, the suite's failure color)")
        }
    }
}
