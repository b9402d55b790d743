import CSwscale
import ThrobberCore

/// The libswscale functions Throbber calls, looked up when the first frame
/// is resized (``DynamicLibrary``), with the types of libswscale's header.
package struct SwscaleLibrary: @unchecked Sendable {
    let getContext:
        @convention(c) (
            Int32, Int32, AVPixelFormat, Int32, Int32, AVPixelFormat, Int32, UnsafeMutablePointer<SwsFilter>?,
            UnsafeMutablePointer<SwsFilter>?, UnsafePointer<Double>?
        ) -> OpaquePointer?
    let scale:
        @convention(c) (
            OpaquePointer?, UnsafePointer<UnsafePointer<UInt8>?>?, UnsafePointer<Int32>?, Int32, Int32,
            UnsafePointer<UnsafeMutablePointer<UInt8>?>?, UnsafePointer<Int32>?
        ) -> Int32
    let freeContext: @convention(c) (OpaquePointer?) -> Void
    /// `LIBSWSCALE_VERSION_INT` of the library loaded: major << 16 | minor << 8 | micro.
    package let version: @convention(c) () -> UInt32

    private init() throws {
        let library = try DynamicLibrary(
            ["libswscale.so.\(LIBSWSCALE_VERSION_MAJOR)", "libswscale.so"], package: "libswscale-dev")
        getContext = try library.function("sws_getContext", as: type(of: getContext))
        scale = try library.function("sws_scale", as: type(of: scale))
        freeContext = try library.function("sws_freeContext", as: type(of: freeContext))
        version = try library.function("swscale_version", as: type(of: version))
    }

    private static let loaded = Result { try SwscaleLibrary() }

    /// The library, loaded by the first call. Throws
    /// ``ThrobberError/Kind/software`` when it cannot be loaded.
    package static func get() throws -> SwscaleLibrary { try loaded.get() }
}
