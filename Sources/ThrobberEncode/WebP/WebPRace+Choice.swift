import ThrobberCodecs
import ThrobberCore

/// Which libwebp settings race for an encode, decided from the settings,
/// the frame count and the frame size alone (the tuned values are in
/// `WebPTuning`).
extension WebPRace {
    /// The libwebp settings raced for `settings` on `frames` frames of
    /// `size`: one lossy setting for `--quality` (without `--colors`), else
    /// lossless ones, several for `best` and `max`, as no single setting
    /// wins on every animation.
    static func candidates(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> [WebPAnimWriter.Settings] {
        if settings.colors == nil, let quality = settings.quality {
            return [lossy(Float(quality), compression: settings.compression)]
        }
        switch settings.compression {
        case .fast: return [WebPTuning.fastLossless]
        case .best, .max:
            var list = [WebPTuning.method3, WebPTuning.method5]
            if settings.compression == .max || mayRaceExhaustive(settings, frames: frames, size: size) {
                if settings.compression == .best && settings.colors == nil {
                    // Small truecolor animations: method 3 beat method 5 on
                    // one preset of 18, by 6 B, where the exhaustive setting
                    // won anyway, for more than half of method 5's time.
                    list.removeFirst()
                }
                list.append(WebPTuning.exhaustive)
            } else if racesFullEffort(settings, frames: frames, size: size) {
                // Second, so that on two threads it has one to itself
                // (`parallelMap` starts the first two at once).
                list.insert(WebPTuning.fullEffort, at: 1)
            }
            return list
        }
    }

    /// The lossy setting at libwebp quality `quality` for `compression`:
    /// key frames every few frames, libwebp free to code a frame lossless
    /// where that is smaller (`allowMixed`), and with `max` libwebp's
    /// per-image deblocking strength.
    static func lossy(_ quality: Float, compression: EncodeSettings.Compression) -> WebPAnimWriter.Settings {
        let methods = WebPTuning.lossyMethods
        let method =
            switch compression {
            case .fast: methods.fast
            case .best: methods.best
            case .max: methods.max
            }
        return WebPAnimWriter.Settings(
            lossless: false, quality: quality, method: method, keyFrames: WebPTuning.lossyKeyFrames, allowMixed: true,
            autofilter: compression == .max)
    }

    /// Whether the default (`best`) truecolor lossless encode races
    /// `fullEffort`: animations too large for the exhaustive race whose
    /// frames have more than `fullEffortTiles` of method 4's 8x8 tiles, so
    /// that libwebp bins their histograms below effort 100, and more than
    /// twice `prefixFrames` frames, so that the prefix decides on a small
    /// part of the work.
    static func racesFullEffort(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Bool {
        guard settings.compression == .best, settings.colors == nil, settings.quality == nil, let size else {
            return false
        }
        let tiles = ((size.width + 7) / 8) * ((size.height + 7) / 8)
        return tiles > WebPTuning.fullEffortTiles && frames > 2 * WebPTuning.prefixFrames
            && !mayRaceExhaustive(settings, frames: frames, size: size)
    }

    /// Whether `settings` on `frames` frames of `size` may race the
    /// exhaustive setting (a sample of the first frames decides,
    /// `exhaustivePays`): lossless or palette, `best`, at most
    /// `exhaustivePixels` pixels in all.
    static func mayRaceExhaustive(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Bool {
        guard settings.compression == .best, settings.colors != nil || settings.quality == nil, let size else {
            return false
        }
        return FrameSize.product(frames, size.width * size.height) <= WebPTuning.exhaustivePixels
    }

    /// Whether the racer with `racer`'s settings codes on a second thread
    /// of libwebp's own (`WebPAnimWriter`'s `sideThread`): the exhaustive
    /// setting, which tries 6 to 8 transforms a frame where the others try
    /// one or two, where `jobs` allows two threads. It runs longest by far,
    /// and the racers beside it finish early and leave their core idle
    /// (the same bytes, a fifth to two fifths sooner: "WebP: which
    /// lossless settings race" in docs/tuning.md).
    static func sideThread(_ racer: WebPAnimWriter.Settings, jobs: Int) -> Bool {
        jobs > 1 && racer == WebPTuning.exhaustive
    }

    /// Whole frames the race holds beyond the skeleton's batches, for the
    /// memory plan (`FormatEncoder.heldFrames`).
    static func heldFrames(_ settings: EncodeSettings, frames: Int, size: FrameSize?) -> Int {
        // A palette WebP also holds the canvas shown and the source before,
        // and each frame of a batch in flight its quantized rectangle.
        let palette = settings.colors == nil ? 0 : 2 + max(4, 2 * settings.jobs)
        let perWriter = WebPTuning.heldBytesPerWriter
        let fixed =
            size.map { size -> Int in
                let bytes = max(size.rgbaBytes, 1)
                return perWriter / bytes + (perWriter % bytes == 0 ? 0 : 1)
            } ?? 0
        // Where the exhaustive setting may race, every frame waits for the
        // end; where method 4 at effort 100 races, the prefix's frames and
        // one more wait for its probes.
        let waiting =
            mayRaceExhaustive(settings, frames: frames, size: size)
            ? frames : racesFullEffort(settings, frames: frames, size: size) ? WebPTuning.prefixFrames + 1 : 0
        // The exhaustive coder's side thread holds an encoder of its own.
        let list = candidates(settings, frames: frames, size: size)
        let writers = list.count + (list.contains { sideThread($0, jobs: settings.jobs) } ? 1 : 0)
        return (WebPTuning.heldPerWriter + fixed) * writers + palette + waiting
    }
}
