import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// "Same inputs and options → same bytes, whatever the thread count":
/// each input is encoded with 1 and 2 jobs, and twice with 2 jobs. The
/// inputs span several batches of the pipeline (batches are 4 frames with
/// 1–2 jobs), and cover each palette path.
@Suite("Determinism", .tags(.slow))
struct DeterminismTests {
    static func expectSameBytes(_ source: FrameSource, _ settings: EncodeSettings, _ what: String) throws {
        var s = settings
        s.jobs = 1
        let one = try gifBytes(source, s)
        s.jobs = 2
        let two = try gifBytes(source, s)
        let again = try gifBytes(source, s)
        #expect(one.count > 100, "\(what): suspiciously small GIF")
        #expect(one == two, "\(what): jobs 1 and 2 differ (\(one.count) vs \(two.count) bytes)")
        #expect(two == again, "\(what): two runs with jobs 2 differ")
    }

    @Test("lossless, one global palette: identical bytes for jobs 1 and 2, and run twice")
    func globalPalette() throws {
        try Self.expectSameBytes(
            MemoryFrameSource(Synth.movingDisc(frames: 11)), .with { $0.timing.fps = Rational(12) }, "moving disc")
    }

    @Test("lossless, local palettes: identical bytes for jobs 1 and 2, and run twice")
    func localPalettes() throws {
        try Self.expectSameBytes(
            MemoryFrameSource(Synth.distinctPalettes(frames: 9)), .with { $0.timing.fps = Rational(10) },
            "distinct palettes")
    }

    @Test("quantized with libimagequant: identical bytes for jobs 1 and 2, and run twice")
    func quantized() throws {
        let frames = (0..<10).map { Synth.photoLike(phase: $0 * 2) } + [Synth.noise(seed: 7, width: 64, height: 48)]
        try Self.expectSameBytes(MemoryFrameSource(frames), .with { $0.timing.fps = Rational(10) }, "photo-like")
        try Self.expectSameBytes(
            MemoryFrameSource(frames),
            .with {
                $0.quality = 60
                $0.dither = 0.5
                $0.colors = 64
            }, "photo-like q60")
    }

    @Test(
        "real files (camera JPEGs quantized; CgBI frames with transparency, bounce): identical bytes for jobs 1 and 2",
        Fixtures.needed)
    func realFiles() throws {
        let jpegs = Array(try FrameList().files(for: [try Fixtures.folder("photo-seq-dlib-bobot").path]).prefix(16))
        try Self.expectSameBytes(FileFrameSource(files: jpegs), .with { $0.quality = 90 }, "camera JPEGs")
        let cgbi = try FrameList(glob: "dropdown_anim__*").files(for: [
            try Fixtures.folder("mjrefresh-dropdown_anim").path
        ])
        try Self.expectSameBytes(
            FileFrameSource(files: cgbi),
            .with {
                $0.timing.bounce = true
                $0.timing.fps = Rational(20)
            }, "CgBI frames")
    }
}
