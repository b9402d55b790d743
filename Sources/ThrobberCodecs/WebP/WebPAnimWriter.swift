import CWebP
import ThrobberCore

/// An animated WebP made by libwebp's animation encoder (`WebPAnimEncoder`,
/// libwebpmux), which picks each frame's rectangle, blend and dispose, and
/// merges frames that do not change. Frames go in as whole canvases with
/// their start in milliseconds; the file comes out whole at the end (the
/// muxer needs every frame before it can write the first byte). One thread
/// at a time.
package final class WebPAnimWriter {
    /// How libwebp codes the frames.
    package struct Settings: Sendable, Equatable {
        /// VP8L, exact for every visible pixel; otherwise VP8 with lossless
        /// alpha.
        package var lossless: Bool
        /// libwebp quality 0…100: for lossless the effort of the search,
        /// for lossy the quantizer.
        package var quality: Float
        /// libwebp method 0 (fastest) … 6 (smallest).
        package var method: Int32
        /// Lossy: a key frame at least every `kmax` and at most every
        /// `kmin` frames (libwebp decides in between); nil: only the first
        /// frame is a key frame.
        package var keyFrames: (kmin: Int32, kmax: Int32)?
        /// Lossy: let libwebp code any frame lossless where that is smaller.
        package var allowMixed: Bool
        /// Lossy: libwebp's deblocking filter strength chosen per image.
        package var autofilter: Bool

        package init(
            lossless: Bool, quality: Float, method: Int32, keyFrames: (kmin: Int32, kmax: Int32)? = nil,
            allowMixed: Bool = false, autofilter: Bool = false
        ) {
            self.lossless = lossless
            self.quality = quality
            self.method = method
            self.keyFrames = keyFrames
            self.allowMixed = allowMixed
            self.autofilter = autofilter
        }

        package static func == (a: Settings, b: Settings) -> Bool {
            a.lossless == b.lossless && a.quality == b.quality && a.method == b.method
                && a.keyFrames?.kmin == b.keyFrames?.kmin && a.keyFrames?.kmax == b.keyFrames?.kmax
                && a.allowMixed == b.allowMixed && a.autofilter == b.autofilter
        }
    }

    package let settings: Settings
    private let width: Int
    private let height: Int
    private var encoder: OpaquePointer?
    private var config: WebPConfig
    /// A frame held back until the next one shows when it ends: libwebp
    /// wants every duration above 0, so of frames starting in the same
    /// millisecond only the last is added.
    private var pending: (image: RGBAImage, start: Int)?
    private var lastAdded: Int?
    package private(set) var frames = 0

    /// Starts an animation of `width`×`height`; `loop`: 0 = forever, N =
    /// play N times (at most 65535). With `sideThread`, libwebp codes each
    /// lossless frame's trials on two threads (`thread_level` 1: the
    /// transforms it tries are split in two halves, and the smaller result
    /// wins, the earlier of equal ones, as on one thread): the same bytes,
    /// sooner where it tries several.
    package init(width: Int, height: Int, loop: Int, settings: Settings, sideThread: Bool = false) throws {
        self.settings = settings
        self.width = width
        self.height = height
        config = try Self.config(settings)
        config.thread_level = sideThread ? 1 : 0
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInitInternal(&options, WEBP_MUX_ABI_VERSION) != 0 else {
            throw ThrobberError(.software, "libwebp: animation encoder version mismatch")
        }
        options.anim_params.loop_count = Int32(loop)
        // Transparent black, what viewers show for a disposed rectangle
        // whatever this says.
        options.anim_params.bgcolor = 0
        options.allow_mixed = settings.allowMixed ? 1 : 0
        if let k = settings.keyFrames {
            options.kmin = k.kmin
            options.kmax = k.kmax
        }
        guard let encoder = WebPAnimEncoderNewInternal(Int32(width), Int32(height), &options, WEBP_MUX_ABI_VERSION)
        else {
            throw ThrobberError(.software, "libwebp could not start an animation of \(width)x\(height)")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// libwebp's encoder settings for `settings`.
    private static func config(_ settings: Settings) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, 75, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw ThrobberError(.software, "libwebp: encoder version mismatch")
        }
        config.lossless = settings.lossless ? 1 : 0
        config.quality = settings.quality
        config.method = settings.method
        // Alpha stays lossless in lossy frames: loader edges keep their
        // anti-aliasing exactly.
        config.alpha_quality = 100
        config.alpha_compression = 1
        if !settings.lossless {
            config.autofilter = settings.autofilter ? 1 : 0
        }
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else {
            throw ThrobberError(.software, "libwebp refused its settings (\(settings))")
        }
        return config
    }

    /// The bytes `image` takes as a still WebP coded with `settings` (the
    /// way libwebp codes an animation's first frame): a cheap sample of
    /// what a setting gains on the whole animation.
    package static func stillSize(_ image: RGBAImage, settings: Settings) throws -> Int {
        var config = try config(settings)
        var picture = try picture(image)
        defer { WebPPictureFree(&picture) }
        var memory = WebPMemoryWriter()
        WebPMemoryWriterInit(&memory)
        defer { WebPMemoryWriterClear(&memory) }
        let ok = withUnsafeMutablePointer(to: &memory) { writer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writer)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0 else {
            throw ThrobberError(
                .software,
                "libwebp could not code a \(image.width)x\(image.height) sample (error \(picture.error_code.rawValue))")
        }
        return memory.size
    }

    /// `image` as a libwebp picture in ARGB (which lossless coding and the
    /// animation encoder both want); the caller frees it.
    private static func picture(_ image: RGBAImage) throws -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw ThrobberError(.software, "libwebp: picture version mismatch")
        }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let imported = image.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw ThrobberError(
                .software, "libwebp could not hold a frame of \(image.width)x\(image.height) (out of memory)")
        }
        return picture
    }

    /// The longest step between two frames added to libwebp, in
    /// milliseconds: an ANMF frame lasts less than 2^24 ms (4 h 40 min). A
    /// frame shown longer is added again at steps of this, and libwebp
    /// extends or splits the frame it already holds.
    static let longestStep = 16_000_000

    /// Adds a frame shown from `start` milliseconds on (never before the
    /// previous frame's start).
    package func add(_ image: RGBAImage, start: Int) throws {
        precondition(image.width == width && image.height == height, "frame size differs from the canvas")
        if let pending, pending.start < start { try encode(pending.image, at: pending.start, until: start) }
        pending = (image, start)
    }

    /// Ends the animation at `end` milliseconds and returns the file.
    package func finish(end: Int) throws -> [UInt8] {
        if let pending {
            // A last frame of no duration is dropped, unless it is the only one.
            if pending.start < end || lastAdded == nil { try encode(pending.image, at: pending.start, until: end) }
            self.pending = nil
        }
        guard let last = lastAdded else { throw ThrobberError(.software, "WebP animation without frames") }
        guard WebPAnimEncoderAdd(encoder, nil, Self.timestamp(max(end, last + 1)), nil) != 0 else {
            throw failure("ending the animation")
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else { throw failure("assembling the file") }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: data.bytes)) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }

    /// Adds `image` at `start`, and again every ``longestStep`` until
    /// `end`, where the next frame starts.
    private func encode(_ image: RGBAImage, at start: Int, until end: Int) throws {
        var picture = try Self.picture(image)
        defer { WebPPictureFree(&picture) }
        if !settings.lossless { config.preprocessing = Self.isFlat(image) ? 1 : 0 }
        var at = start
        repeat {
            guard WebPAnimEncoderAdd(encoder, &picture, Self.timestamp(at), &config) != 0 else {
                throw failure("frame \(frames + 1)")
            }
            lastAdded = at
            at += Self.longestStep
        } while at < end
        frames += 1
    }

    /// libwebp's timestamp for `milliseconds`: its 32 bits wrap, as libwebp
    /// allows (it takes the difference of two as unsigned), so an animation
    /// may last longer than 2^31 ms.
    private static func timestamp(_ milliseconds: Int) -> Int32 { Int32(truncatingIfNeeded: milliseconds) }

    /// Whether at least half of `image`'s whole 16x16 blocks hold at most
    /// 4 colors (every fully transparent pixel counting as one): drawn
    /// content (loaders, test patterns, screens) rather than a photograph
    /// or a rendering with texture.
    ///
    /// A lossy frame that is flat gets libwebp's segment smoothing: its
    /// macroblocks' segment map (which of four quantizers each one takes)
    /// put through a 3x3 majority filter. On drawn content the raw map
    /// flips between segments along flat areas; smoothed, testsrc2 codes
    /// 0.0001–0.0006 more SSIM at the same bytes (quality 55–80). On
    /// texture the raw map is right: smoothing costs mandelbrot
    /// 0.0001–0.0002 SSIM and a camera's frames (photo-seq-dlib-bobot) up
    /// to 0.0016, so other frames keep libwebp's default, no smoothing
    /// (docs/tuning.md, "WebP: lossy method and segment smoothing").
    /// Blocks holding at most 4 colors: testsrc2 78–80 %, life 100 %,
    /// mandelbrot 0 %, the camera's frames 25–37 %.
    package static func isFlat(_ image: RGBAImage) -> Bool {
        let side = 16
        let across = image.width / side
        let down = image.height / side
        guard across > 0, down > 0 else { return false }
        var flat = 0
        var seen = [UInt32](repeating: 0, count: 4)
        image.pixels.withUnsafeBytes { bytes in
            for by in 0..<down {
                for bx in 0..<across {
                    var count = 0
                    block: for y in by * side..<(by + 1) * side {
                        var offset = (y * image.width + bx * side) * 4
                        for _ in 0..<side {
                            var pixel = UInt32(
                                littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                            offset += 4
                            if pixel >> 24 == 0 { pixel = 0 }  // alpha 0
                            if seen[..<count].contains(pixel) { continue }
                            guard count < seen.count else {
                                count += 1
                                break block
                            }
                            seen[count] = pixel
                            count += 1
                        }
                    }
                    if count <= seen.count { flat += 1 }
                }
            }
        }
        return flat * 2 >= across * down
    }

    private func failure(_ what: String) -> ThrobberError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
        return ThrobberError(.software, "libwebp failed on \(what): \(message.isEmpty ? "no reason given" : message)")
    }

    /// libwebp's version, "1.2.4".
    package static var version: String {
        let v = WebPGetEncoderVersion()
        return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }
}
