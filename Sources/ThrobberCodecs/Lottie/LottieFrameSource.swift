import ThrobberCore

/// The frames of a Lottie animation, drawn by rlottie when asked for (from
/// any thread, each by a fresh rlottie object, so a frame never depends on
/// what was drawn before it), timed by a ``LottieTiming``. Rendering is
/// vector: a frame is drawn at the size it is shown, never resampled.
public struct LottieFrameSource: FrameSource {
    /// The animation.
    public let file: LottieFile
    /// Which file frames are shown, and how long.
    public let timing: LottieTiming
    /// The size rlottie draws the composition at (its aspect ratio kept).
    public let renderWidth: Int
    /// The size rlottie draws the composition at.
    public let renderHeight: Int
    /// The frame size; larger than the render size when padded, the drawing
    /// then centered (as `--fit contain` pads).
    public let canvasWidth: Int
    /// The frame height.
    public let canvasHeight: Int
    /// Composited under every frame; transparent by default.
    public let background: Color
    /// rlottie objects alive at once: one per drawing thread.
    public let workers: Int

    /// Frames of `file` timed by `timing`, drawn at `renderWidth`×
    /// `renderHeight` (default: the file's size) centered on a canvas of
    /// `canvasWidth`×`canvasHeight` (default: the render size), over
    /// `background`, by `workers` threads at most. Sizes must be at least 1
    /// and the canvas at least the render size.
    public init(
        file: LottieFile, timing: LottieTiming, renderWidth: Int? = nil, renderHeight: Int? = nil,
        canvasWidth: Int? = nil, canvasHeight: Int? = nil, background: Color = .transparent, workers: Int = 1
    ) {
        self.workers = max(1, workers)
        self.file = file
        self.timing = timing
        self.renderWidth = renderWidth ?? file.width
        self.renderHeight = renderHeight ?? file.height
        self.canvasWidth = canvasWidth ?? self.renderWidth
        self.canvasHeight = canvasHeight ?? self.renderHeight
        precondition(self.renderWidth >= 1 && self.renderHeight >= 1)
        precondition(self.canvasWidth >= self.renderWidth && self.canvasHeight >= self.renderHeight)
        self.background = background
    }

    /// One per shown frame.
    public var count: Int { timing.frames.count }

    /// "loader.json frame N", N the file's frame number.
    public func name(at index: Int) -> String { "\(file.name) frame \(file.inPoint + timing.frames[index])" }

    /// The shown frame's duration from ``timing``.
    public func duration(at index: Int) -> Rational? { timing.durations[index] }

    /// One rlottie object per drawing thread, counted in the run's memory
    /// budget before anything is drawn.
    public var residentBytes: Int { FrameSize.product(file.modelBytes, min(workers, max(1, count))) }

    /// The canvas size, known from the file before any frame is drawn.
    public func knownSize(at index: Int) -> FrameSize? { FrameSize(width: canvasWidth, height: canvasHeight) }

    /// Frame `index`, drawn now. Throws ``ThrobberError/Kind/data`` when
    /// rlottie cannot read the file.
    public func frame(at index: Int) throws -> RGBAImage {
        let drawn = try RLottieRender.render(
            file, frame: timing.frames[index], width: renderWidth, height: renderHeight)
        guard canvasWidth != renderWidth || canvasHeight != renderHeight || background.a > 0 else { return drawn }
        var canvas = RGBAImage(width: canvasWidth, height: canvasHeight, fill: background)
        canvas.draw(
            drawn, at: (canvasWidth - renderWidth) / 2, (canvasHeight - renderHeight) / 2, over: background.a > 0)
        return canvas
    }
}
