/// The encode settings an error can be about, named by their path in
/// `EncodeSettings` (front ends name them their own way: `--fps`,
/// `timing.fps`).
public enum SettingField: String, Sendable, CaseIterable {
    case fps = "timing.fps", delay = "timing.delay", duplicate = "timing.duplicate"
    case loop, quality, dither, colors, jobs
}
