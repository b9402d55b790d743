import Glibc

/// A C library opened on first use rather than when the process starts.
///
/// Every library the executable links is mapped and relocated before
/// `main`, whether the run needs it or not. libswscale (with libavutil and
/// the video-acceleration libraries it pulls in) and rlottie (with the C++
/// runtime) serve only resizing and Lottie input, and cost 2–3 ms of every
/// start, so they are opened here, once, by the first caller that needs
/// them (docs/tuning.md, "Start-up").
package final class DynamicLibrary: @unchecked Sendable {
    /// The name it was opened by.
    package let name: String
    private let handle: UnsafeMutableRawPointer

    /// Opens the first of `names` (sonames, then the development link) that
    /// loads. Throws ``ThrobberError/Kind/software`` naming the library and
    /// the Debian package that provides it.
    package init(_ names: [String], package: String) throws {
        var reasons: [String] = []
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.name = name
                self.handle = handle
                return
            }
            reasons.append(dlerror().map { String(cString: $0) } ?? name)
        }
        throw ThrobberError(
            .software, "cannot load \(names[0]) (\(reasons.joined(separator: "; "))); install Debian's \(package)")
    }

    /// The function `symbol`, as `type` (a `@convention(c)` function type
    /// spelled as in the library's header). Throws when it is missing.
    package func function<T>(_ symbol: String, as type: T.Type) throws -> T {
        guard let address = dlsym(handle, symbol) else {
            throw ThrobberError(.software, "\(name) has no function \(symbol); reinstall it")
        }
        return unsafeBitCast(address, to: type)
    }
}
