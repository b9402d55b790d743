import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Exact scene time (CONFIG.md, "Time"): the cycle is the least common
/// multiple of the animations' periods (or `timing.duration`); it is cut into
/// N = round(duration · fps) frames and frame k shows t = k · duration / N,
/// so the loop is seamless.
public struct SceneClock: Equatable, Sendable {
    /// Length of one cycle in seconds.
    public let duration: Rational
    /// Frames in one cycle, 1…``maxFrames``.
    public let frameCount: Int

    /// Longest cycle accepted, in frames.
    public static let maxFrames = 1000

    /// A clock with a known cycle, cut into `frameCount` frames (at least 1).
    public init(duration: Rational, frameCount: Int) {
        self.duration = duration
        self.frameCount = frameCount
    }

    /// The clock of a scene: the cycle is `timing.duration`, or else the
    /// least common multiple of every animation's period (1 s without
    /// animations), sampled at `timing.fps`.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the config when the
    /// periods have no common cycle short enough (set `timing.duration`) or
    /// the cycle would need more than ``maxFrames`` frames.
    public init(config: SceneConfig, layers: [Layer]) throws {
        let file = config.file
        let duration = try SceneClock.cycle(config: config, layers: layers) as Rational?
        let exact = duration! * config.timing.fps
        let n = exact.roundedHalfUp
        guard n <= Int64(SceneClock.maxFrames) else {
            throw ThrobberError(
                .data,
                "\(file): timing: a cycle of \(duration!) s at \(config.timing.fps) fps is \(n) frames, over the \(SceneClock.maxFrames) frame limit; lower timing.fps or set a shorter timing.duration"
            )
        }
        guard n >= 1 else {
            throw ThrobberError(
                .data,
                "\(file): timing.fps: a cycle of \(duration!) s at \(config.timing.fps) fps is less than one frame; raise timing.fps"
            )
        }
        if SceneClock.hasSteps(layers), Rational(n) < duration! / config.timing.step {
            throw ThrobberError(
                .data,
                "\(file): timing.fps: \(n) frames cannot show the \(duration! / config.timing.step) steps of \(config.timing.step) s in a cycle of \(duration!) s; use at least \(Rational(1) / config.timing.step) fps"
            )
        }
        let items = SceneBudget.items(layers)
        guard items <= SceneBudget.maxDrawings / Int(n) else {
            throw ThrobberError(
                .data,
                "\(file): timing: \(n) frames of \(items) drawn items each are more than \(SceneBudget.maxDrawings) drawings; lower timing.fps, shorten the cycle or draw fewer copies"
            )
        }
        self.init(duration: duration!, frameCount: Int(n))
    }

    /// The length of one cycle: `timing.duration`, or else the least common
    /// multiple of every animation's period (1 s without animations).
    /// Throws ``ThrobberError/Kind/data`` naming the config when the periods
    /// have no common cycle short enough.
    static func cycle(config: SceneConfig, layers: [Layer]) throws -> Rational {
        if let duration = config.timing.duration { return duration }
        var cycle: Rational? = nil
        for period in SceneClock.periods(layers, step: config.timing.step) {
            guard let c = cycle else {
                cycle = period
                continue
            }
            guard let l = Rational.lcm(c, period), l.numerator <= 1_000_000_000 else {
                throw ThrobberError(
                    .data,
                    "\(config.file): timing: the animations' periods have no common cycle short enough; set timing.duration"
                )
            }
            cycle = l
        }
        return cycle ?? Rational(1)
    }

    /// Whether any layer (groups included) has a step animation.
    static func hasSteps(_ layers: [Layer]) -> Bool {
        layers.contains { layer in
            if layer.animations.contains(where: { if case .step = $0.kind { true } else { false } }) { return true }
            if case .group(let children) = layer.kind { return hasSteps(children) }
            return false
        }
    }

    /// Every animation period in the scene (all layers, groups included),
    /// a Lottie layer's loop among them.
    static func periods(_ layers: [Layer], step: Rational) -> [Rational] {
        layers.flatMap { layer -> [Rational] in
            var p = layer.animations.map { $0.period(step: step) }
            switch layer.kind {
            case .group(let children): p += periods(children, step: step)
            case .lottie(let lottie): p.append(lottie.period)
            default: break
            }
            return p
        }
    }

    /// The scene time of frame `k`.
    public func time(ofFrame k: Int) -> Rational {
        duration * Rational(Int64(k)) / Rational(Int64(frameCount))
    }

    /// The exact length of one frame.
    public var frameDuration: Rational { duration / Rational(Int64(frameCount)) }
}
