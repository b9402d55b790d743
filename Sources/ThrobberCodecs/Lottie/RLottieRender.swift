internal import CRLottie
import Synchronization
import ThrobberCore

/// rlottie's drawing of one frame, as a pure function of the file, the
/// frame and the size.
///
/// An rlottie animation object keeps state from the frames it drew before
/// in its render tree: on simple_loader, frame 7 drawn right after frame 2
/// differs in 191 pixels from frame 7 drawn by a fresh object
/// (docs/tuning.md, "Lottie: one parse per drawing thread"). So every frame
/// is drawn by a fresh object, made and destroyed on the thread that draws
/// it, and no object is ever used by two threads.
///
/// A fresh object is cheap when its parsed model comes from rlottie's model
/// cache: the cache key names the file's JSON (its SHA-256) and a slot of
/// ``ModelSlots``, so the JSON is parsed and its images decoded once per
/// slot, and each object builds only its render tree from the model. A
/// model is read, never written, while an object draws, but rlottie counts
/// the users of an embedded image's pixels without atomics, so one model is
/// used by one thread at a time: a slot is held from making an object to
/// destroying it.
enum RLottieRender {
    /// Parsed models rlottie keeps: one per slot of every file being drawn
    /// (a slot per drawing thread). Each is a file's JSON and decoded
    /// images; a run drawing more at once parses the excess anew, which
    /// costs time and never changes a pixel.
    static let cachedModels = 16

    /// Sizes rlottie's model cache once per process, before the first
    /// object is made.
    private static let cacheSized: Void = throbber_rlottie_configure_model_cache_size(cachedModels)

    /// A fresh rlottie object for `file`, destroyed after `body`, its model
    /// from the cache under one of the file's free slots.
    private static func with<T>(
        _ file: LottieFile, _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        _ = cacheSized
        let slot = ModelSlots.shared.take(file.modelKey)
        defer { ModelSlots.shared.give(slot, file.modelKey) }
        let key = "throbber-lottie-\(file.modelKey)-\(slot)"
        // The resource path is unused: images by path are already embedded.
        guard let animation = file.json.withUnsafeBufferPointer({ lottie_animation_from_data($0.baseAddress, key, "") })
        else {
            throw ThrobberError(.data, "\(file.name): rlottie cannot read this Lottie animation")
        }
        defer { lottie_animation_destroy(animation) }
        return try body(animation)
    }

    /// Numbers each file's cached models, so that a model is used by one
    /// thread at a time: a thread takes a free slot (or a new one when all
    /// are taken) and gives it back when its object is destroyed. A file
    /// gets as many slots as threads that drew it at once.
    final class ModelSlots: Sendable {
        /// The slots of every file being drawn or drawn before.
        static let shared = ModelSlots()

        /// Free slots, and how many each file has, by model key.
        private let state = Mutex<(free: [String: [Int]], made: [String: Int])>(([:], [:]))

        /// A slot of `key` no other thread holds.
        func take(_ key: String) -> Int {
            state.withLock { s in
                if let slot = s.free[key]?.popLast() { return slot }
                defer { s.made[key, default: 0] += 1 }
                return s.made[key, default: 0]
            }
        }

        /// Returns `slot` of `key`, taken by ``take(_:)``.
        func give(_ slot: Int, _ key: String) {
            state.withLock { s in
                s.free[key, default: []].append(slot)
                // The lowest first, so the slots already parsed are reused.
                s.free[key]?.sort(by: >)
            }
        }
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
