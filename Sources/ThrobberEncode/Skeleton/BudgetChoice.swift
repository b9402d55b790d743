import ThrobberCore

/// What a byte-budget search (``EncodeSettings/maxBytes``) chose: the
/// settings of the file written and its size.
public struct BudgetChoice: Equatable, Sendable {
    /// The format written.
    public var format: AnimationFormat
    /// libimagequant quality (WebP: libwebp's lossy quality); nil: as
    /// without a budget (lossless when the colors fit, else quality 100;
    /// WebP lossless).
    public var quality: Int?
    /// GIF lossy LZW level (0 for APNG).
    public var lossy: Int
    /// Most colors per palette; nil: 256 for GIF, truecolor for APNG.
    public var colors: Int?
    /// Dithering strength.
    public var dither: Double
    /// Size of the file written.
    public var bytes: Int
    /// The budget searched under (``EncodeSettings/maxBytes``).
    public var maxBytes = 0
    /// Files encoded to find it (each lossy level counted once).
    public var trials: Int
    /// Whether `bytes` is an estimate: a file that grew past the budget is
    /// left unfinished, and its size scaled from the share written.
    public var estimated = false
    /// Where the file is posterized or heavily lossy: that, and what would
    /// fit at better settings (`AnimationEncoder.budgetNote`); nil
    /// otherwise.
    public var note: String?

    /// Whether the settings give up much of the look: fewer colors than
    /// `BudgetTuning.posterizedBelow` (posterized) or heavily lossy as the
    /// format judges it (`FormatEncoder.heavyLoss`).
    public var isDegraded: Bool { posterized || format.encoder.heavyLoss(self) != nil }

    /// Fewer colors than `BudgetTuning.posterizedBelow`.
    var posterized: Bool { (colors ?? 256) < BudgetTuning.posterizedBelow }

    /// What a degraded choice gave up, in words: "posterized to 24 colors",
    /// "heavily lossy (lossy 200)", "heavily lossy (quality 12)"; nil where
    /// it is not degraded.
    public var degradation: String? {
        posterized ? "posterized to \(colors ?? 256) colors" : format.encoder.heavyLoss(self)
    }

    /// "quality 82, lossy 40, 256 colors" (GIF), "quality 82, 64 colors"
    /// (APNG), "quality 82" or "lossless settings" (WebP): as the format
    /// says it.
    public var description: String { format.encoder.describe(self) }
}
