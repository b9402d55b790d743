internal import CCairo
internal import CDeflate
internal import CFontconfig
internal import CGIF
internal import CHarfBuzz
internal import CImageQuant
internal import CPNG
internal import CPixman
internal import CRLottie
internal import CSwscale
internal import CWebP
internal import CZlib
internal import CZopfli
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode
import ThrobberScene

/// The versions of the C libraries that decide output bytes. Pinned hashes
/// are only comparable between runs with the same versions.
public enum LibraryVersions {
    /// The running versions of giflib, libpng, zlib, libdeflate and zopfli
    /// (APNG deflate), libimagequant, cairo, pixman, libswscale (the
    /// resamplers), rlottie (Lottie input), libwebp, HarfBuzz (text
    /// shaping and outlines), fontconfig (which file a font family is) and
    /// FFmpeg's libavformat, libavcodec and libavutil (video input;
    /// ``FFmpegVersions/absent`` when FFmpeg cannot be loaded), in that
    /// order, as `("giflib", "5.2.1")` pairs.
    public static var current: [(name: String, version: String)] {
        let liq = Int(liq_version())
        let sws = swscale_version()
        let fc = Int(FcGetVersion())
        return [
            ("giflib", "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)"),
            ("libpng", String(cString: png_get_libpng_ver(nil))),
            ("zlib", String(cString: zlibVersion())),
            ("libdeflate", LIBDEFLATE_VERSION_STRING),
            // Like rlottie, zopfli cannot report its version (tested).
            ("zopfli", String(cString: throbber_zopfli_version())),
            ("libimagequant", "\(liq / 10000).\(liq / 100 % 100).\(liq % 100)"),
            ("cairo", String(cString: cairo_version_string())),
            ("pixman", String(cString: pixman_version_string())),
            ("libswscale", "\(sws >> 16).\(sws >> 8 & 255).\(sws & 255)"),
            // rlottie 0.1 cannot report its version: the shim's constant is
            // the pkg-config version it was built against (tested).
            ("rlottie", String(cString: throbber_rlottie_version())),
            ("libwebp", WebPAnimWriter.version),
            ("harfbuzz", String(cString: hb_version_string())),
            ("fontconfig", "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)"),
        ] + FFmpegVersions.current
    }
}
