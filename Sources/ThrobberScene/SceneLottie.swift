import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A Lottie layer's animation (`{"lottie": "x.json"}`), read and checked
/// when the config is read, drawn by rlottie frame by frame.
///
/// Its size is the file's `w`×`h`, taken as points (so canvas `scale` 2
/// draws it at 2·w×2·h pixels, by rlottie, not resampled). Its time is the
/// scene's: at scene time t, a layer copy whose animations start d seconds
/// later (`repeat.delay`) shows the file's frame ⌊((t − d) mod L) · fr⌋,
/// L = n / fr the file's loop, so the Lottie loops on its own period and
/// that period takes part in the scene's cycle like an animation's.
public struct SceneLottie: Sendable {
    /// The file, resolved against the config's folder.
    public var path: String
    /// The animation, its header checked and accepted by rlottie.
    public var file: LottieFile

    /// The animation at `path`, for messages as given in the config.
    public init(path: String, file: LottieFile) {
        self.path = path
        self.file = file
    }

    /// One loop in seconds: the file's frame count over its frame rate.
    public var period: Rational { file.loopDuration }

    /// The file's frame (0 is its `ip`) shown at `localTime` seconds.
    public func frame(at localTime: Rational) -> Int {
        let u = localTime.modulo(period)
        return min(file.frameCount - 1, max(0, Int((u * file.frameRate).floor)))
    }
}
