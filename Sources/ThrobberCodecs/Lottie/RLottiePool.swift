internal import CRLottie
import Synchronization
import ThrobberCore

/// rlottie animation objects for one file. An object must not render on
/// two threads at once, and frames are asked for from several threads: a
/// thread takes an idle object (or makes one) and gives it back after the
/// render, so there are never more objects than threads rendering.
final class RLottiePool: Sendable {
    private let file: LottieFile
    /// Idle objects, kept as addresses (plain data) to pass the lock.
    private let idle = Mutex<[Int]>([])

    init(_ file: LottieFile) { self.file = file }

    deinit {
        for address in idle.withLock({ $0 }) { lottie_animation_destroy(OpaquePointer(bitPattern: address)) }
    }

    private func take() throws -> OpaquePointer {
        if let address = idle.withLock({ $0.popLast() }) { return OpaquePointer(bitPattern: address)! }
        // No cache key: rlottie keeps no process-wide model for it.
        guard let animation = file.json.withUnsafeBufferPointer({ lottie_animation_from_data($0.baseAddress, "", "") })
        else {
            throw ThrobberError(.data, "\(file.name): rlottie cannot read this Lottie animation")
        }
        return animation
    }

    private func give(_ animation: OpaquePointer) {
        idle.withLock { $0.append(Int(bitPattern: animation)) }
    }

    /// Makes the first object, so a file rlottie refuses, or reads
    /// differently than the header says, fails before any output.
    func check() throws {
        let animation = try take()
        defer { give(animation) }
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

    /// rlottie's frame `frame` (0 is the file's first frame, `ip`) drawn to
    /// fit `width`×`height` (rlottie keeps the aspect ratio, centered), as
    /// straight RGBA: each premultiplied channel c of alpha a > 0 becomes
    /// ⌊(c·255 + a/2) / a⌋ (at most 255); a = 0 becomes 0,0,0,0.
    func render(frame: Int, width: Int, height: Int) throws -> RGBAImage {
        let animation = try take()
        defer { give(animation) }
        var argb = [UInt32](repeating: 0, count: width * height)
        argb.withUnsafeMutableBufferPointer {
            lottie_animation_render(animation, frame, $0.baseAddress, width, height, width * 4)
        }
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
}
