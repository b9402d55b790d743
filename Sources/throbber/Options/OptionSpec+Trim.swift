import ThrobberKit

/// `--trim` and `--trim-margin`: crop to what the frames draw.
extension OptionSpec {
    static let trim = OptionSpec(
        "trim",
        help:
            "Crop every frame to the union of what any frame draws (after --crop, before resizing); throbber info shows that box.",
        details:
            "A pixel is drawn when it is not fully transparent; when every frame's four corners are one opaque color (a background the file draws, or --background), when it differs from that color. Corners of different opaque colors leave nothing to trim. When nothing is drawn, the top-left pixel is kept, as ImageMagick's -trim does. Every frame is read once more for this (a Lottie file's frames are drawn twice, at the file's size)."
    )

    static let trimMargin = OptionSpec(
        "trim-margin", value: "px", help: "With --trim: keep this many pixels around the box, within the frame.",
        default: "0")

    /// Reads `--trim` and `--trim-margin` into `transform` (the margin's
    /// range is the library's to check).
    static func parseTrim(_ args: Arguments, into transform: inout FrameTransform) throws {
        transform.trim = args.flag("trim")
        if let margin = try args.int("trim-margin") {
            guard transform.trim else { throw ThrobberError(.usage, "--trim-margin goes with --trim") }
            transform.trimMargin = margin
        }
    }
}
