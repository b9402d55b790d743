import ThrobberCore

/// How much a frame stream may hold, checked as it is read so that an
/// endless or absurd pipe is refused before gigabytes are spooled.
public enum StreamLimits {
    /// Most frames a stream may have (a 400-second clip at 25 fps).
    public static let maxFrames = 10_000
    /// Most bytes of frames a stream may spool (PNG files as received, or
    /// raw Y'CbCr planes): 2 GiB.
    public static let maxBytes = 2 << 30
    /// Largest single PNG file in a stream.
    public static let maxPNGBytes = 256 << 20

    /// Throws a data error naming frame `frame` (1-based) when it would
    /// take the stream past ``maxFrames`` or, at `total` bytes, past
    /// ``maxBytes``.
    static func check(frame: Int, total: Int, name: String) throws {
        guard frame <= maxFrames else {
            throw ThrobberError(
                .data,
                "\(name): frame \(frame) is over the limit of \(maxFrames) frames per stream; cut the stream shorter (ffmpeg -frames:v N, or -vf fps=N)"
            )
        }
        guard total <= maxBytes else {
            throw ThrobberError(
                .data,
                "\(name): frame \(frame) takes the stream over \(maxBytes >> 30) GiB of frame data; send fewer or smaller frames (ffmpeg -frames:v N, -vf scale=W:-2)"
            )
        }
    }
}
