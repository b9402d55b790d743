import ThrobberCodecs
import ThrobberCore

/// One output format as the encoder skeleton (`AnimationEncoder`) drives it.
/// The skeleton owns the order of work, batching, threads, progress and the
/// report; a format supplies the steps that differ between formats, each
/// called in frame order except `process`, which is pure and runs on worker
/// threads while the previous batch is written.
protocol FormatEncoder: SendableMetatype {
    /// A distinct frame after planning (its rectangle, blend, delay decided).
    associatedtype Planned: Sendable
    /// A planned frame after the parallel stage (palette, compression),
    /// ready to be written.
    associatedtype Ready: Sendable
    /// What the parallel stage reads: fixed once the survey is done.
    associatedtype Stage: Sendable

    /// What the format can express.
    static var limits: FormatLimits { get }
    /// File name extensions (lowercase, no dot) for this format.
    static var fileExtensions: [String] { get }

    /// Starts an encode of frames shown as `timeline` into `sink`.
    init(settings: EncodeSettings, timeline: Timeline, sink: ByteSink)

    /// How frames are prepared as they are loaded: the alpha policy for
    /// formats without partial alpha, nil to keep alpha as it is.
    var alpha: AlphaPolicy? { get }

    /// A look at every frame before anything is written, when the format
    /// needs one (colors that fit a palette, opacity, the frame count);
    /// `frames` keeps what it loads for the walk while it fits the budget.
    mutating func survey(_ frames: inout FrameLoader) throws

    /// Writes the file header, once the first frame is known.
    mutating func begin(first: RGBAImage) throws

    /// Plans a distinct frame (in order): one or more frames of the file.
    mutating func plan(_ frame: DistinctFrame) throws -> [Planned]

    /// The inputs of `process`.
    var stage: Stage { get }

    /// The work frames do not share (palettes, compression): pure, so it
    /// runs on `jobs` threads and overlaps with writing the batch before.
    static func process(_ frames: [Planned], stage: Stage, jobs: Int) throws -> [Ready]

    /// Writes processed frames, in order.
    mutating func write(_ frames: [Ready]) throws

    /// Set by `write` when the rest of the frames cannot change the
    /// outcome (a byte-budget trial whose every file is already over its
    /// budget): the run ends after that batch, without `finish`. An
    /// ordinary encode never sets it.
    var stopped: Bool { get }

    /// Ends the file; returns how colors were stored, for the report.
    mutating func finish() throws -> String

    /// The format's byte-budget search for `settings` under `maxBytes`
    /// (``EncodeSettings/maxBytes``): its ladder and how it tries a step.
    static func budget(_ settings: EncodeSettings, maxBytes: Int) -> any BudgetStrategy

    /// The settings of a budget's choice in words, for messages ("quality
    /// 82, lossy 40, 256 colors").
    static func describe(_ choice: BudgetChoice) -> String

    /// Where a budget's choice is heavily lossy by the format's measure
    /// (a lossy GIF level, a low WebP quality), that in words ("heavily
    /// lossy (lossy 200)"); nil otherwise.
    static func heavyLoss(_ choice: BudgetChoice) -> String?

    /// Whole frames (RGBA of the output size) the format's own coder holds
    /// beyond the skeleton's batches, for the memory plan: `frames`
    /// timeline entries of `size`.
    static func heldFrames(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Int
}

extension FormatEncoder {
    var stopped: Bool { false }

    /// Formats without a lossy setting are never heavily lossy.
    static func heavyLoss(_ choice: BudgetChoice) -> String? { nil }

    /// Formats that code frame by frame hold nothing more.
    static func heldFrames(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Int { 0 }
}
