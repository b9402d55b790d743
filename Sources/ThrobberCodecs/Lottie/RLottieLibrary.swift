internal import CRLottie
import ThrobberCore

/// The rlottie functions Throbber calls, looked up when the first Lottie
/// file is read (``DynamicLibrary``), with the types of `rlottie_capi.h`.
struct RLottieLibrary: @unchecked Sendable {
    let fromData: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?
    let destroy: @convention(c) (OpaquePointer?) -> Void
    let size: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?) -> Void
    let totalFrames: @convention(c) (OpaquePointer?) -> Int
    let render: @convention(c) (OpaquePointer?, Int, UnsafeMutablePointer<UInt32>?, Int, Int, Int) -> Void

    private init() throws {
        // Debian names the soname after the package (librlottie0-1); other
        // builds use the plain major version.
        let library = try DynamicLibrary(
            ["librlottie.so.0-1", "librlottie.so.0", "librlottie.so"], package: "librlottie-dev")
        fromData = try library.function("lottie_animation_from_data", as: type(of: fromData))
        destroy = try library.function("lottie_animation_destroy", as: type(of: destroy))
        size = try library.function("lottie_animation_get_size", as: type(of: size))
        totalFrames = try library.function("lottie_animation_get_totalframe", as: type(of: totalFrames))
        render = try library.function("lottie_animation_render", as: type(of: render))
    }

    private static let loaded = Result { try RLottieLibrary() }

    /// The library, loaded by the first call. Throws
    /// ``ThrobberError/Kind/software`` when it cannot be loaded.
    static func get() throws -> RLottieLibrary { try loaded.get() }
}
