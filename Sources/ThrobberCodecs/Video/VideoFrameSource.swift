import ThrobberCore

/// Frames of a video, decoded when asked for: output frame `i` shows
/// source frame `frames[i]` (an index into ``VideoFile/frameStarts``) for
/// `durations[i]`.
///
/// One decoder serves every thread: it decodes forward under a lock and
/// keeps the last few frames (`VideoDecoder`); the conversion to RGBA
/// runs in the calling thread, outside the lock. Every frame comes out the
/// same whatever the number of threads and the order frames are asked in.
public struct VideoFrameSource: FrameSource {
    /// The file.
    public let file: VideoFile
    /// The source frame each output frame shows.
    public let frames: [Int]
    /// How long each output frame is shown.
    public let durations: [Rational]
    /// Composited under every frame when not fully transparent (`--background`).
    public var background: Color
    /// How much frames of more than 8 bits a sample are dithered on their
    /// way to 8 bits, 0 (rounded: the default) to 1 (`--dither`).
    public var dither = 0.0
    private let decoder: VideoDecoder
    private let kernels = VideoScaler.KernelCache()

    /// Frames `frames` of `file`, shown for `durations` (one each),
    /// decoded with `jobs` decoder threads.
    public init(file: VideoFile, frames: [Int], durations: [Rational], background: Color = .transparent, jobs: Int = 1)
    {
        precondition(frames.count == durations.count && frames.allSatisfy { file.frameStarts.indices.contains($0) })
        self.file = file
        self.frames = frames
        self.durations = durations
        self.background = background
        decoder = VideoDecoder(file: file, threads: jobs)
    }

    public var count: Int { frames.count }

    /// "clip.mp4 at 0:01.240": the file and the frame's start in the clip.
    public func name(at index: Int) -> String { file.path + file.at(file.framePts[frames[index]]) }

    /// The frame, as straight RGBA at the display size, upright, over
    /// ``background``. Throws a data error naming the file and the time
    /// when it does not decode.
    public func frame(at index: Int) throws -> RGBAImage {
        let pts = file.framePts[frames[index]]
        let picture = try decoder.picture(at: pts)
        defer { picture.release() }
        do {
            return try VideoPicture.image(picture.frame, file: file, dither: dither).over(background: background)
        } catch let error as ThrobberError {
            throw ThrobberError(error.kind, "\(name(at: index)): \(error.message)")
        }
    }

    /// The frame resized to `width`×`height` with Lanczos-3 from its
    /// decoded planes (`VideoScaler`): ``frame(at:)`` then resampling,
    /// but for colors outside RGB, clipped after the resize rather than
    /// before. Nil when that path does not apply to this clip or size.
    public func resampledFrame(at index: Int, width: Int, height: Int) throws -> RGBAImage? {
        let pts = file.framePts[frames[index]]
        let picture = try decoder.picture(at: pts)
        defer { picture.release() }
        return VideoScaler.image(picture.frame, file: file, width: width, height: height, cache: kernels)?.over(
            background: background)
    }

    public func duration(at index: Int) -> Rational? { durations[index] }

    /// The display size, from the headers.
    public func knownSize(at index: Int) -> FrameSize? {
        FrameSize(width: file.info.displayWidth, height: file.info.displayHeight)
    }

    /// The decoder and its window (``VideoFile/residentBytes``).
    public var residentBytes: Int { file.residentBytes }
}
