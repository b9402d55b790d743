import CSwscale
import Synchronization
import ThrobberCore

/// Idle libswscale contexts, by what they are made for.
final class ContextPool: Sendable {
    /// At most this many idle contexts are kept (animations have one size).
    static let limit = 8
    private let idle = Mutex<[(key: Swscale.Key, context: Context)]>([])

    /// An owned `SwsContext` and the scratch memory its frames are split
    /// into and scaled in (the planes of the source rectangle, then of the
    /// result: reused, so a frame costs no fresh pages), handed from thread
    /// to thread through the lock (kept as addresses, which are plain data).
    struct Context: Sendable {
        private let address: Int
        private let scratchAddress: Int
        init(pointer: OpaquePointer, scratch: UnsafeMutablePointer<UInt8>) {
            address = Int(bitPattern: pointer)
            scratchAddress = Int(bitPattern: scratch)
        }
        var pointer: OpaquePointer { OpaquePointer(bitPattern: address)! }
        /// `Key.scratchCount` bytes.
        var scratch: UnsafeMutablePointer<UInt8> { UnsafeMutablePointer(bitPattern: scratchAddress)! }
        func free() {
            sws_freeContext(pointer)
            scratch.deallocate()
        }
    }

    /// An idle context for `key`, or a new one. Throws
    /// ``ThrobberError/Kind/software`` if libswscale refuses the sizes.
    func take(_ key: Swscale.Key) throws -> Context {
        if let found = idle.withLock({ list -> Context? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            return list.remove(at: i).context
        }) {
            return found
        }
        let flags = Swscale.baseFlags | (key.filter == .mitchell ? SWS_BICUBIC : SWS_LANCZOS)
        // Lanczos: 3 lobes. Bicubic: B = C = 1/3, Mitchell–Netravali.
        var params = key.filter == .mitchell ? [1.0 / 3, 1.0 / 3] : [3, Double(SWS_PARAM_DEFAULT)]
        guard
            let pointer = sws_getContext(
                Int32(key.width), Int32(key.height), AV_PIX_FMT_GRAY8, Int32(key.toWidth), Int32(key.toHeight),
                AV_PIX_FMT_GRAY8, flags, nil, nil, &params)
        else {
            throw ThrobberError(
                .software, "libswscale cannot resize \(key.width)x\(key.height) to \(key.toWidth)x\(key.toHeight)")
        }
        return Context(pointer: pointer, scratch: .allocate(capacity: key.scratchCount))
    }

    /// Returns `context` for reuse (or frees it when enough are idle).
    func give(_ context: Context, _ key: Swscale.Key) {
        let extra = idle.withLock { list -> Context? in
            list.append((key, context))
            return list.count > Self.limit ? list.removeFirst().context : nil
        }
        extra?.free()
    }
}
