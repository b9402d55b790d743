import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore

/// Everything that decides how frames become an animated file, apart from
/// the frames. Checked once, by `validate(for:)`, against the limits of the
/// format being written.
public struct EncodeSettings: Equatable, Sendable {
    /// Frame rate or fixed delay, duplication, bounce and speed; default
    /// 25 fps.
    public var timing = Timeline.Settings()
    /// Frames picked and reversed, pixels cropped and resized, before
    /// anything else; the default changes nothing.
    public var transform = FrameTransform()
    /// 0 = forever, N = play N times.
    public var loop = 0
    /// The frame of the loop shown first, counting from 1 as the loop plays
    /// (after picking, reversing, duplicating and bouncing): the loop is
    /// rotated, not changed. nil: as it comes.
    public var posterFrame: Int?
    /// nil: lossless when every frame fits in 256 colors, else `defaultQuality`.
    public var quality: Int? = nil
    /// Floyd–Steinberg dithering strength when colors are reduced, 0
    /// (none) to 1 (full, the default). GIF stops the dither next to
    /// strong edges, where it would speckle.
    public var dither = 1.0
    /// Most colors per palette, 2–256. GIF: nil means 256. APNG: a palette
    /// APNG of at most this many colors; nil means lossless truecolor. WebP:
    /// a palette of at most this many colors a frame, coded lossless; nil
    /// means truecolor (lossless, or lossy with `quality`).
    public var colors: Int? = nil
    /// GIF: a libimagequant palette for each frame (the default), or one
    /// shared by all frames. Frames that fit in 256 colors stay lossless
    /// either way.
    public var palette = PaletteScope.frame
    /// GIF lossy LZW, 0 (off, the default) to 200 (gifsicle's scale): a
    /// pixel may take a palette color up to about lossy / 5 levels from
    /// its source color where that makes LZW strings longer. APNG has no
    /// LZW and ignores it.
    public var lossy = 0
    /// The largest file allowed, in bytes, or nil for no limit. Given, the
    /// encoder searches quality, lossy LZW, colors and dither (the pixels,
    /// frame count and timing only with ``budgetMayReduce``) for the
    /// best-looking file that fits: see ``EncodeReport/budget``.
    public var maxBytes: Int? = nil
    /// What a byte budget may also give up, with the user's leave: the
    /// frame rate, the size, or both. Used only where the best file of
    /// the full frames and size would be posterized or heavily lossy, or
    /// none fits (``BudgetChoice/isDegraded``); empty (the default), the
    /// budget never touches frames or pixels.
    public var budgetMayReduce: BudgetReductions = []
    /// What partial alpha becomes in GIF (a 50% threshold, or a matte);
    /// APNG keeps alpha as it is.
    public var alpha = AlphaPolicy()
    /// How hard the format's compressor works (APNG: deflate effort).
    public var compression = Compression.best
    /// Worker threads; output bytes never depend on it.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// The most memory the run may use, checked before any frame is
    /// decoded; nil: ``MemoryBudget/machineDefault``. Output bytes never
    /// depend on it (it only cuts batches of big frames, or refuses).
    public var memory: MemoryBudget? = nil

    /// libimagequant quality used when frames have too many colors. 100
    /// rather than 90: on testsrc2 quality 90 is 1.5 dB below ffmpeg's
    /// per-frame palettes, 100 is 2.7 dB above it and no larger
    /// (docs/tuning.md).
    public static let defaultQuality = 100

    /// The defaults: 25 fps, loop forever, lossless when possible, full
    /// dither, no matte, best compression, one job per processor.
    public init() {}

    /// Which frames a GIF's quantized palette serves.
    public enum PaletteScope: String, Sendable, CaseIterable {
        /// Each frame its own palette, chosen for its own colors: the
        /// truest colors, the most work.
        case frame
        /// One palette for the whole animation, chosen from the frames'
        /// colors together (as ffmpeg's palettegen recipe; from an even
        /// sample of a long animation): one search
        /// instead of one a frame, no table in each frame, and steady
        /// colors where footage holds still; colors that only a few frames
        /// show get fewer entries.
        case shared
    }

    /// How hard every stage works for a smaller file: each format's
    /// compressor, and the palette search and resampling before it.
    public enum Compression: String, Sendable, CaseIterable {
        /// APNG: one filter heuristic and one quick libdeflate pass per
        /// frame. GIF: libimagequant at a quicker speed, each frame coded
        /// once (no rewrite trials, LZW clears only where giflib clears).
        /// WebP: one lossless setting. A video is resized from its Y'CbCr
        /// planes.
        case fast
        /// APNG: five filter strategies tried on each way of coding a frame,
        /// the smallest deflated with libdeflate's level 11. GIF: frames
        /// rewritten where a trial codes them smaller, and LZW clears
        /// placed where they pay. WebP: lossless settings raced, the
        /// smallest kept.
        case best
        /// APNG: all eight filter strategies, then libdeflate 12 and zopfli
        /// on each frame's winner (many times slower, a few percent
        /// smaller). GIF: as `best`. WebP: `best`'s race with libwebp's
        /// exhaustive setting in it, always.
        case max
    }

    /// The settings an error can be about (`ThrobberError.field`).
    public typealias Field = SettingField

    /// Refuses a speed outside 1/1000…1000 or more finely divided than
    /// thousandths (so exact time arithmetic stays far from overflow).
    public static func check(speed: Rational) throws {
        guard speed > Rational(0), speed <= Rational(1000), speed.denominator <= 1000 else {
            throw ThrobberError(
                .usage, field: .speed,
                "must be above 0 and at most 1000, with at most 3 decimals (1.5, 0.25 or 2/3), got \(speed)")
        }
    }

    /// Refuses settings that cannot make a correct file of `format`, with a
    /// usage error naming the field and the range it must be in.
    public func validate(for format: AnimationFormat) throws {
        let limits = format.limits
        func bad(_ field: Field, _ why: String) -> ThrobberError { ThrobberError(.usage, field: field, why) }
        if let delay = timing.delay {
            guard limits.delays.contains(delay) else {
                throw bad(
                    .delay,
                    "must be \(limits.delays.lowerBound)…\(limits.delays.upperBound) centiseconds for \(limits.name)\(limits.delayReason.map { " (\($0))" } ?? ""), got \(delay)"
                )
            }
        } else {
            let fps = timing.fps
            guard fps > Rational(0) else { throw bad(.fps, "must be greater than 0, got \(fps)") }
            // Bounded so that exact time arithmetic cannot overflow.
            guard fps.numerator <= 1_000_000_000, fps.denominator <= 1_000_000 else {
                throw bad(.fps, "\(fps) is too large or too finely divided (up to 1e9, denominators up to 1e6)")
            }
            if let maxFPS = limits.maxFPS, fps > Rational(Int64(maxFPS)) {
                throw bad(
                    .fps,
                    "\(fps) fps is too fast for \(limits.name): \(limits.delayReason ?? "delays would be too short"); use \(maxFPS) fps or less"
                )
            }
        }
        let speed = timing.speed
        try Self.check(speed: speed)
        if timing.delay == nil {
            // The rate actually played stays within the bounds of fps.
            let played = timing.fps * speed
            guard played.numerator <= 1_000_000_000, played.denominator <= 1_000_000 else {
                throw bad(.speed, "\(speed) with \(timing.fps) fps is too finely divided a rate")
            }
        }
        try transform.validate()
        guard (1...1000).contains(timing.duplicate) else {
            throw bad(.duplicate, "must be 1…1000, got \(timing.duplicate)")
        }
        guard (0...limits.maxLoop).contains(loop) else {
            throw bad(.loop, "must be 0 (forever) … \(limits.maxLoop) for \(limits.name), got \(loop)")
        }
        if let maxBytes, maxBytes <= 0 { throw bad(.maxBytes, "must be more than 0 bytes, got \(maxBytes)") }
        try validateColors(for: format)
        guard (1...256).contains(jobs) else { throw bad(.jobs, "must be 1…256, got \(jobs)") }
    }

    /// The quality, colors, dither, lossy LZW and palette settings checked
    /// against `format` (part of `validate(for:)`).
    private func validateColors(for format: AnimationFormat) throws {
        let limits = format.limits
        func bad(_ field: Field, _ why: String) -> ThrobberError { ThrobberError(.usage, field: field, why) }
        if let quality, !(1...100).contains(quality) { throw bad(.quality, "must be 1…100, got \(quality)") }
        guard (0...1).contains(dither) else { throw bad(.dither, "must be 0…1, got \(dither)") }
        if let colors, !(2...256).contains(colors) { throw bad(.colors, "must be 2…256, got \(colors)") }
        guard lossy == 0 || limits.maxLossy > 0 else {
            throw bad(.lossy, "lossy LZW is for GIF; \(limits.name) is made smaller with \(limits.smallerWith)")
        }
        guard palette == .frame || format == .gif else {
            throw bad(
                .palette,
                "is for GIF: an APNG with --colors already has one palette for all frames, a WebP with --colors one a frame"
            )
        }
        guard (0...limits.maxLossy).contains(lossy) else {
            throw bad(.lossy, "must be 0 (off) … \(limits.maxLossy), got \(lossy)")
        }
        guard colors != nil || dither == 1 || limits.dithersTruecolor else {
            throw bad(
                .dither,
                "is for palettes: with \(limits.name) it needs --colors (without it, --quality gives lossy frames)")
        }
    }
}
