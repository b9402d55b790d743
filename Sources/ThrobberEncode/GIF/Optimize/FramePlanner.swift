import ThrobberCodecs
import ThrobberCore

/// Plans frame geometry like gifsicle's optimizer, on composited screens:
/// redraw only the rectangle that changed, and dispose a frame to
/// background only when the next frame needs transparent pixels where this
/// one is opaque (GIF cannot draw transparency over an opaque pixel).
///
/// Invariant: `canvas` is exactly what a viewer shows before the next frame
/// is drawn, if every frame is drawn losslessly.
struct FramePlanner {
    private(set) var canvas: RGBAImage?

    /// Plans `target`, given the frame that follows it (for the last frame:
    /// the first one, which is what a looping viewer shows next).
    mutating func plan(_ target: RGBAImage, next: RGBAImage) -> FrameGeometry {
        let full = PixelRect(x: 0, y: 0, width: target.width, height: target.height)
        let changed = canvas.map { FrameDiff.changedRect(target, $0) } ?? full
        let clear = FrameDiff.rectToClear(target, before: next)
        var rect = changed.union(clear)
        if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        let disposal: Disposal = clear.isEmpty ? .none : .background
        var after = target
        if disposal == .background { FrameDiff.clear(&after, rect) }
        canvas = after
        return FrameGeometry(rect: rect, disposal: disposal)
    }
}
