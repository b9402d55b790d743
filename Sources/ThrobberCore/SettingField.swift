/// The encode settings an error can be about, named by their path in
/// `EncodeSettings` (front ends name them their own way: `--fps`,
/// `timing.fps`).
public enum SettingField: String, Sendable, CaseIterable {
    /// `timing.fps`: frames per second, above 0 (at most 50 for GIF).
    case fps = "timing.fps"
    /// `timing.delay`: a fixed delay per frame in centiseconds, within the
    /// format's range (GIF 2…65535, APNG 1…65535).
    case delay = "timing.delay"
    /// `timing.duplicate`: how many times each frame is shown, 1…1000.
    case duplicate = "timing.duplicate"
    /// `loop`: 0 (forever) up to the largest count the format stores.
    case loop
    /// `quality`: the libimagequant quality, 1…100.
    case quality
    /// `dither`: the dithering level, 0…1.
    case dither
    /// `colors`: the most colors per palette, 2…256.
    case colors
    /// `lossy`: the lossy LZW level of GIF, 0…200.
    case lossy
    /// `palette`: which frames a GIF's quantized palette serves.
    case palette
    /// `max-bytes`: the largest file allowed, above 0.
    case maxBytes = "max-bytes"
    /// `jobs`: worker threads, 1…256.
    case jobs
    /// `timing.speed`: how many times as fast frames play, above 0.
    case speed = "timing.speed"
    /// `--poster-frame`: the frame of the loop shown first.
    case posterFrame = "timing.poster-frame"
    /// `transform.frames`: which input frames, in which order.
    case frames = "transform.frames"
    /// `transform.crop`: the rectangle kept, inside the frame.
    case crop = "transform.crop"
    /// `transform.width`: the output width in pixels.
    case width = "transform.width"
    /// `transform.height`: the output height in pixels.
    case height = "transform.height"
    /// `transform.scale`: the resize factor.
    case scale = "transform.scale"
    /// `transform.trim-margin`: pixels kept around the trimmed box.
    case trimMargin = "transform.trim-margin"
}
