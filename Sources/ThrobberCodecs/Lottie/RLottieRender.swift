internal import CRLottie
import ThrobberCore

/// rlottie's drawing of one frame, as a pure function of the file, the
/// frame and the size.
///
/// An rlottie animation object keeps state from the frames it drew before:
/// on simple_loader, frame 7 drawn right after frame 2 differs in 191
/// pixels from frame 7 drawn by a fresh object. Objects shared between
/// threads (a pool, or one behind a lock) would make the bytes depend on
/// which thread drew what before. So every frame gets a fresh object, made
/// and destroyed on the thread that draws it: parsing costs 0.1–0.2 ms on
/// the fixtures, and no object is ever used by two threads.
enum RLottieRender {
    /// A fresh rlottie object for `file`, destroyed after `body`.
    private static func with<T>(
        _ file: LottieFile, _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        // No cache key: rlottie keeps no process-wide model for it.
        guard let animation = file.json.withUnsafeBufferPointer({ lottie_animation_from_data($0.baseAddress, "", "") })
        else {
            throw ThrobberError(.data, "\(file.name): rlottie cannot read this Lottie animation")
        }
        defer { lottie_animation_destroy(animation) }
        return try body(animation)
    }

    /// Fails, naming the file, when rlottie refuses it or reads a size or
    /// frame count other than the header's, so that fails before any output.
    static func check(_ file: LottieFile) throws {
        try with(file) { animation in
            var (w, h) = (0, 0)
            lottie_animation_get_size(animation, &w, &h)
            let frames = lottie_animation_get_totalframe(animation)
            guard w == file.width, h == file.height, frames == file.frameCount else {
                throw ThrobberError(
                    .data,
                    "\(file.name): rlottie reads \(w)x\(h) pixels and \(frames) frames, the file says \(file.width)x\(file.height) and \(file.frameCount)"
                )
            }
        }
    }

    /// rlottie's frame `frame` of `file` (0 is the file's first frame, `ip`)
    /// drawn to fit `width`×`height` (rlottie keeps the aspect ratio,
    /// centered), as straight RGBA: each premultiplied channel c of alpha
    /// a > 0 becomes ⌊(c·255 + a/2) / a⌋ (at most 255); a = 0 becomes
    /// 0,0,0,0.
    static func render(_ file: LottieFile, frame: Int, width: Int, height: Int) throws -> RGBAImage {
        let argb = try premultipliedARGB(file, frame: frame, width: width, height: height)
        var image = RGBAImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { out in
            for (i, p) in argb.enumerated() {
                let a = p >> 24
                guard a > 0 else { continue }
                let o = i * 4
                func straight(_ c: UInt32) -> UInt8 { UInt8(min(255, ((c & 255) * 255 + a / 2) / a)) }
                out[o] = straight(p >> 16)
                out[o + 1] = straight(p >> 8)
                out[o + 2] = straight(p)
                out[o + 3] = UInt8(a)
            }
        }
        return image
    }

    /// rlottie's frame `frame` of `file` at `width`×`height` as it draws it:
    /// premultiplied ARGB, one native-endian UInt32 per pixel, rows of
    /// `width` pixels (cairo's `CAIRO_FORMAT_ARGB32` with stride width·4).
    static func premultipliedARGB(_ file: LottieFile, frame: Int, width: Int, height: Int) throws -> [UInt32] {
        var argb = [UInt32](repeating: 0, count: width * height)
        try with(file) { animation in
            argb.withUnsafeMutableBufferPointer {
                lottie_animation_render(animation, frame, $0.baseAddress, width, height, width * 4)
            }
        }
        return argb
    }
}
