import ThrobberCore

/// An animated GIF, APNG or WebP, decoded and composited as a viewer shows it:
/// every frame is the whole canvas after that frame was drawn.
public struct DecodedAnimation: Sendable {
    /// Canvas width in pixels (GIF logical screen, APNG image width).
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// The whole canvas after each frame was drawn, in file order.
    public var frames: [RGBAImage]
    /// How long each frame is shown, in seconds.
    public var durations: [Rational]
    /// As in configs: 0 = forever, N = play N times.
    public var loop: Int
    /// Which of the formats the file is.
    public var format: AnimationFormat
    /// Each frame as stored in the file (for `throbber info`).
    public var stored: [StoredFrame]
    /// APNG: the color type and bit depth all frames share, as `info`
    /// shows it ("palette 2-bit", "gray 1-bit", "RGB 8-bit"); WebP: how
    /// the frames are coded ("lossless", "lossy", "lossy and lossless",
    /// with ", alpha" when the file has alpha); nil for GIF.
    public var pixelType: String?

    /// An animation from its parts; `frames`, `durations` and `stored`
    /// should have one element per frame.
    public init(
        width: Int, height: Int, frames: [RGBAImage], durations: [Rational], loop: Int,
        format: AnimationFormat, stored: [StoredFrame], pixelType: String? = nil
    ) {
        self.pixelType = pixelType
        self.width = width
        self.height = height
        self.frames = frames
        self.durations = durations
        self.loop = loop
        self.format = format
        self.stored = stored
    }

    /// A frame's record in the file, before compositing.
    public struct StoredFrame: Sendable, Equatable {
        /// The part of the canvas the frame's image data covers.
        public var rect: PixelRect
        /// The delay as the file states it: centiseconds / 100 for GIF,
        /// delay_num / delay_den for APNG (a zero denominator read as 100),
        /// milliseconds / 1000 for WebP.
        public var delay: (numerator: Int, denominator: Int)
        /// GIF: "unspecified", "none", "background", "previous";
        /// APNG: "none", "background", "previous"; WebP: "none", "background".
        public var dispose: String
        /// APNG and WebP: "source" or "over"; GIF frames always draw over ("over").
        public var blend: String
        /// Entries of the color table the frame uses; nil for truecolor.
        public var colors: Int?
        /// GIF: the transparent color index, if any.
        public var transparent: Int?

        /// A frame record with the fields above; `colors` and
        /// `transparent` default to nil (truecolor, no transparent index).
        public init(
            rect: PixelRect, delay: (numerator: Int, denominator: Int), dispose: String, blend: String,
            colors: Int? = nil, transparent: Int? = nil
        ) {
            self.rect = rect
            self.delay = delay
            self.dispose = dispose
            self.blend = blend
            self.colors = colors
            self.transparent = transparent
        }

        /// True when every field is equal (written out because the `delay`
        /// tuple cannot be compared automatically).
        public static func == (a: StoredFrame, b: StoredFrame) -> Bool {
            a.rect == b.rect && a.delay == b.delay && a.dispose == b.dispose && a.blend == b.blend
                && a.colors == b.colors && a.transparent == b.transparent
        }
    }

    /// Largest canvas accepted, in pixels, and most decoded bytes in all:
    /// files that claim more are refused before anything is allocated.
    public static let maxPixels = 1 << 26
    /// Most bytes of decoded frames in all (512 MiB, RGBA at 4 bytes a
    /// pixel): an animation whose frames would need more is refused as
    /// ``ThrobberError/Kind/data``.
    public static let maxTotalBytes = 1 << 29

    /// Refuses a canvas too large to decode, naming the claimed size and
    /// the limits: over them a canvas is refused whatever the memory
    /// budget (which is checked only for canvases within them).
    static func checkCanvas(_ width: Int, _ height: Int, name: String) throws {
        guard width > 0, height > 0 else {
            throw ThrobberError(.data, "\(name): invalid canvas size \(width)x\(height)")
        }
        guard width <= ImageDecoder.maxSide, height <= ImageDecoder.maxSide,
            FrameSize.product(width, height) <= maxPixels
        else {
            throw ThrobberError(
                .data,
                "\(name): canvas of \(width)x\(height) pixels is larger than Throbber decodes (at most \(ImageDecoder.maxSide) pixels a side and \(maxPixels) pixels in all)"
            )
        }
    }

    /// Refuses to hold `frames` decoded frames (of the `count` the file
    /// has) of `size` when they are over ``maxTotalBytes``, whatever the
    /// memory budget: the file may be valid, it is only more than Throbber
    /// holds of one animation. `canPick` says whether `--frames` makes
    /// fewer frames held (it does for a WebP).
    static func checkTotal(frames: Int, of count: Int, _ size: FrameSize, name: String, canPick: Bool) throws {
        let bytes = FrameSize.product(frames, size.rgbaBytes)
        guard bytes > maxTotalBytes else { return }
        let which = frames == count ? "\(count) frames" : "\(frames) of its \(count) frames"
        throw ThrobberError(
            .data,
            "\(name): \(which) of \(size) take \(MemoryBudget.describe(bytes)) decoded, over Throbber's limit for one animation (at most \(maxTotalBytes >> 20) MiB of decoded frames; a limit of Throbber's, not of the format)\(canPick ? "; pick fewer frames with --frames" : "")"
        )
    }

    /// Decodes a GIF, APNG or WebP file for inspection; other files are
    /// refused, and so is a pipe or FIFO unless `streams`.
    public static func read(_ path: String, streams: Bool = true) throws -> DecodedAnimation {
        let bytes = try FileBytes.read(path, streams: streams)
        guard let animation = try decode(bytes, name: path) else {
            throw ThrobberError(.data, "\(path): not a GIF, an animated PNG or a WebP")
        }
        return animation
    }

    /// Decodes `bytes` if they are a GIF, an animated PNG or a WebP (still
    /// WebPs too, as one frame); nil for other images. A WebP keeps only
    /// the frames `keep` accepts (0-based) in ``frames``, in order, and
    /// only those count against ``maxTotalBytes``; GIF and APNG keep every
    /// frame.
    public static func decode(_ bytes: [UInt8], name: String, keep: ((Int) -> Bool)? = nil) throws
        -> DecodedAnimation?
    {
        switch ImageFormat.sniff(bytes) {
        case .gif: return try GIFDecoder.decode(bytes, name: name)
        case .png where APNGDecoder.isAnimated(bytes): return try APNGDecoder.decode(bytes, name: name)
        case .webp: return try WebPDecoder.decode(bytes, name: name, keep: keep)
        default: return nil
        }
    }

    /// Whether ``decode(_:name:keep:)`` keeps only the frames asked for in
    /// a file of this format.
    static func keepsSelected(_ format: ImageFormat?) -> Bool { format == .webp }
}
