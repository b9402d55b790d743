import ThrobberCodecs
import ThrobberCore

extension LottieInput {
    /// The longest side the frames are drawn at to look at their corners:
    /// a full-canvas layer covers the corners at any size, and small
    /// drawings are quick.
    static let cornerProbeSide = 32

    /// True when `source`'s file paints every one of its frames opaque at
    /// all four corners by itself (a background layer of its own), so a
    /// background composited under it cannot show. The frames are drawn
    /// again without a background, small, with `source`'s timing.
    public static func drawsOwnBackground(_ source: LottieFrameSource) throws -> Bool {
        let file = source.file
        let side = max(file.width, file.height)
        let w = max(1, file.width * cornerProbeSide / side)
        let h = max(1, file.height * cornerProbeSide / side)
        let probe = LottieFrameSource(file: file, timing: source.timing, renderWidth: w, renderHeight: h)
        for index in 0..<probe.count {
            let image = try probe.frame(at: index)
            for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
            where image.pixels[(y * w + x) * 4 + 3] != 255 {
                return false
            }
        }
        return true
    }
}
