internal import CCairo
import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore

extension SceneRenderer {
    /// Largest side, in pixels, rlottie draws a Lottie layer at; a layer
    /// scaled larger is drawn at this size and enlarged by cairo.
    static let maxLottieSide = 4096

    /// Draws `lottie`'s frame at `localTime` centered at the current origin,
    /// `w`×`h` points in the current transform.
    ///
    /// rlottie draws the frame at the size it covers on the device (vector:
    /// no resampling); its premultiplied ARGB buffer is cairo's
    /// `CAIRO_FORMAT_ARGB32`, so it is painted as it is. When the transform
    /// only moves and scales, the frame is painted at whole device pixels
    /// (its top-left corner rounded to the nearest pixel), so its pixels
    /// land unchanged; when it also rotates, flips or skews, cairo transforms
    /// the device-sized frame with its `GOOD` filter.
    func drawLottie(_ lottie: SceneLottie, _ cr: OpaquePointer, localTime: Rational) throws {
        let w = Double(lottie.file.width)
        let h = Double(lottie.file.height)
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let alignedTolerance = 1e-9
        let aligned = abs(m.xy) < alignedTolerance && abs(m.yx) < alignedTolerance && m.xx > 0 && m.yy > 0
        var pw = max(1, (w * hypot(m.xx, m.yx)).rounded())
        var ph = max(1, (h * hypot(m.xy, m.yy)).rounded())
        let side = Double(SceneRenderer.maxLottieSide)
        let capped = max(pw, ph) > side
        if capped {
            let f = side / max(pw, ph)
            pw = max(1, (pw * f).rounded())
            ph = max(1, (ph * f).rounded())
        }
        let (width, height) = (Int(pw), Int(ph))
        var argb = try lottie.file.premultipliedARGB(
            frame: lottie.frame(at: localTime), width: width, height: height)
        argb.withUnsafeMutableBytes { raw in
            guard
                let source = cairo_image_surface_create_for_data(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
                    Int32(height), Int32(width * 4))
            else { return }
            defer { cairo_surface_destroy(source) }
            cairo_save(cr)
            defer { cairo_restore(cr) }
            if aligned && !capped {
                let x = (m.x0 - pw / 2).rounded()
                let y = (m.y0 - ph / 2).rounded()
                cairo_identity_matrix(cr)
                cairo_set_source_surface(cr, source, x, y)
                cairo_rectangle(cr, x, y, pw, ph)
            } else {
                cairo_scale(cr, w / pw, h / ph)
                cairo_translate(cr, -pw / 2, -ph / 2)
                cairo_set_source_surface(cr, source, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                cairo_rectangle(cr, 0, 0, pw, ph)
            }
            cairo_fill(cr)
        }
    }
}
