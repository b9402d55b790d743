import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore
@testable import ThrobberEncode

/// Quantized frames are coded a batch at a time in parallel
/// (`GIFFrameWriter.writeBatch`); the frames must come out as writing them
/// one by one (`writeQuantized`, the path lossy LZW and byte-budget trials
/// take) writes them.
@Suite("GIF quantized frames coded a batch at a time")
struct GIFBatchWriteTests {
    static let (width, height) = (96, 72)
    static let quantizer = Quantizer(quality: 100, colors: 256, dither: 1)

    /// A photo-like picture of many colors that changes every sixth frame,
    /// with a block moving across it: most pixels keep what is shown, so
    /// frames have exact alternatives, and the rewrite to them is smaller on
    /// some frames (the test fails if those are written plain).
    static func planned(_ count: Int) -> [PlannedFrame] {
        let targets = (0..<count).map { f in
            let base = Synth.photoLike(phase: f / 6, width: width, height: height)
            return Synth.image(width, height) { x, y in
                if (x - f * 5 + 200) % 96 < 14 && (y / 12) % 3 == 1 { return (250, 40, 30, 255) }
                let o = (y * width + x) * 4
                return (base.pixels[o], base.pixels[o + 1], base.pixels[o + 2], 255)
            }
        }
        var planner = FramePlanner()
        return targets.indices.map { i in
            PlannedFrame(
                target: targets[i], geometry: planner.plan(targets[i], next: targets[(i + 1) % count]), delay: 10,
                index: i)
        }
    }

    /// The file written by `write` in batches of `batch` frames.
    static func batched(_ frames: [GIFFrameWriter.Paletted], batch: Int, jobs: Int) throws -> [UInt8] {
        let sink = MemorySink()
        var writer = try GIFFrameWriter(
            sink: sink, width: width, height: height, choice: .quantized(quantizer), loop: 0)
        writer.jobs = jobs
        for start in stride(from: 0, to: frames.count, by: batch) {
            let part = Array(frames[start..<min(start + batch, frames.count)])
            #expect(writer.writesInBatch(part))
            try writer.write(part)
        }
        try writer.finish()
        return sink.bytes
    }

    @Test("any batch size and number of jobs writes the bytes of writing each frame in order")
    func sameAsOneByOne() throws {
        let frames = try GIFFrameWriter.palettize(Self.planned(24), choice: .quantized(Self.quantizer), jobs: 2)
        let sink = MemorySink()
        var writer = try GIFFrameWriter(
            sink: sink, width: Self.width, height: Self.height, choice: .quantized(Self.quantizer), loop: 0)
        for p in frames {
            guard case .quantized(let remapped) = p.work else {
                Issue.record("frame \(p.frame.index) was not quantized")
                return
            }
            try writer.writeQuantized(p.frame, remapped)
        }
        try writer.finish()
        let oneByOne = sink.bytes
        for (batch, jobs) in [(24, 1), (24, 2), (24, 4), (5, 2), (1, 2)] {
            let bytes = try Self.batched(frames, batch: batch, jobs: jobs)
            // Compared first, so a failure names the sizes, not every byte.
            let same = bytes == oneByOne
            #expect(same, "batches of \(batch), \(jobs) jobs: \(bytes.count) B, one by one \(oneByOne.count) B")
        }
        // giflib reads back 24 frames, each within a few levels of its
        // source on average (a kept pixel left wrong by a moved block or a
        // changed band is off by hundreds).
        let decoded = try GIFDecoder.decode(oneByOne, name: "batch.gif")
        let targets = Self.planned(24).map(\.target)
        #expect(decoded.frames.count == 24)
        for (i, (shown, target)) in zip(decoded.frames, targets).enumerated() {
            let diff = zip(shown.pixels, target.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(diff) / Double(target.pixels.count)
            #expect(mean < 3, "frame \(i): mean difference \(mean) levels")
        }
    }
}
