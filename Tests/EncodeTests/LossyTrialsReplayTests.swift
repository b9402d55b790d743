import TestSupport
import Testing

@testable import ThrobberCodecs
@testable import ThrobberCore
@testable import ThrobberEncode

@Suite("Lossy trials replayed from a look", .tags(.slow))
struct LossyTrialsReplayTests {
    let settings = EncodeSettings.with { $0.timing.fps = Rational(10) }
    let source = MemoryFrameSource((0..<32).map { Synth.photoLike(phase: $0 * 3, width: 48, height: 36) })

    /// A pass over the frames into `trials`, in batches of 4 (the first
    /// of 3: a frame is planned once the next is known), so the
    /// checkpoint (entry 8) falls inside a batch, [8, 9, 10, 11].
    func encode(_ trials: LossyTrials) throws {
        let timeline = Timeline(source: source, settings: settings.timing)
        _ = try AnimationEncoder(format: .gif, settings: settings)
            .encodeTrials(settings, source, timeline: timeline, into: trials, batch: 4)
    }

    /// The same pass as one ordinary file at `lossy`, into `sink`.
    func encode(_ sink: MemorySink, lossy: Int) throws {
        var trial = settings
        trial.lossy = lossy
        let timeline = Timeline(source: source, settings: settings.timing)
        _ = try AnimationEncoder(format: .gif, settings: settings)
            .encodeOnce(trial, source, timeline: timeline, to: sink, batch: 4)
    }

    @Test("a whole file that goes on from its look has the bytes and PSNR of an encode at its level")
    func wholeFromLook() throws {
        let plain = MemorySink()
        try encode(plain, lossy: 60)
        let fresh = LossyTrials(levels: [0, 200])
        try encode(fresh)
        let direct = try #require(try fresh.replay(levels: [60], jobs: 2).first)
        #expect(direct.bytes == plain.bytes)

        let trials = LossyTrials(levels: [0, 200])
        try encode(trials)
        let look = try #require(try trials.replay(levels: [60], jobs: 2, untilCheckpoint: true).first)
        #expect(look.projected == false && look.written == 8.0 / 32 && look.prefix == direct.prefix)
        #expect(trials.looks[60] != nil)
        let whole = try #require(try trials.replay(levels: [60], jobs: 2).first)
        #expect(trials.looks.isEmpty)
        #expect(whole.bytes == plain.bytes && !whole.estimated)
        #expect(whole.psnr == direct.psnr && whole.psnr.map { $0 > 20 && $0.isFinite } == true)
    }

    @Test("a look past the whole file's limit before its checkpoint tells where that file would have stopped")
    func lookPastTheLimit() throws {
        let plain = MemorySink()
        try encode(plain, lossy: 60)
        // A limit a third of the bytes at the checkpoint (the whole file
        // stops well before it, with no bytes noted there), and one halfway
        // from there to the whole file's size (it stops after it). The
        // highest level is written whole, so the frames are kept.
        let probe = LossyTrials(levels: [0, 200])
        try encode(probe)
        let prefix = try #require(try probe.replay(levels: [60], jobs: 1).first?.prefix)
        for limit in [prefix / 3, (prefix + plain.bytes.count) / 2] {
            let fresh = LossyTrials(levels: [0, 200], limit: limit, unlimited: 200)
            try encode(fresh)
            let direct = try #require(try fresh.replay(levels: [60], jobs: 1).first)
            let trials = LossyTrials(levels: [0, 200], limit: limit, unlimited: 200)
            try encode(trials)
            _ = try trials.replay(levels: [60], jobs: 1, untilCheckpoint: true)
            let whole = try #require(try trials.replay(levels: [60], jobs: 1).first)
            #expect(whole.estimated && direct.estimated && whole.bytes.isEmpty)
            #expect(whole.size == direct.size && whole.written == direct.written && whole.prefix == direct.prefix)
            #expect(whole.written < 1 && (limit > prefix ? whole.prefix == prefix : whole.prefix == nil), "\(whole)")
        }
    }
}
