import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Exact scene time (man throbber, CONFIG FORMAT: timing): the cycle is the least common
/// multiple of the animations' periods (or `timing.duration`), divided by
/// `timing.speed`; it is cut into N = round(duration · fps) frames and frame
/// k shows t = k · duration / N, so the loop is seamless. Times here are
/// played seconds; ``SceneRenderer`` turns them into the config's own.
public struct SceneClock: Equatable, Sendable {
    /// Length of one cycle in seconds played (`timing.speed` applied).
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
    /// animations), played `timing.speed` times as fast and sampled at
    /// `timing.fps`.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the config when the
    /// periods have no common cycle short enough (set `timing.duration`) or
    /// the cycle would need more than ``maxFrames`` frames.
    public init(config: SceneConfig, layers: [Layer]) throws {
        let file = config.file
        let sceneCycle = try SceneClock.cycle(config: config, layers: layers)
        let duration = sceneCycle / config.timing.speed as Rational?
        func overLimit(_ n: String) -> ThrobberError {
            ThrobberError(
                .data,
                "\(file): timing: a cycle of \(duration!) s at \(config.timing.fps) fps is \(n) frames, over the \(SceneClock.maxFrames) frame limit; lower timing.fps or set a shorter timing.duration"
            )
        }
        // Counted roughly first: a long cycle slowed down, at a finely
        // divided rate, would overflow the exact product.
        let rough = duration!.doubleValue * config.timing.fps.doubleValue
        guard rough < Double(SceneClock.maxFrames + 1) else { throw overLimit(cFormat("%.0f", rough)) }
        let exact = duration! * config.timing.fps
        let n = exact.roundedHalfUp
        guard n <= Int64(SceneClock.maxFrames) else { throw overLimit("\(n)") }
        guard n >= 1 else {
            throw ThrobberError(
                .data,
                "\(file): timing.fps: a cycle of \(duration!) s at \(config.timing.fps) fps is less than one frame; raise timing.fps"
            )
        }
        let step = config.timing.step / config.timing.speed
        if SceneClock.hasSteps(layers), Rational(n) < duration! / step {
            throw ThrobberError(
                .data,
                "\(file): timing.fps: \(n) frames cannot show the \(duration! / step) steps of \(step) s in a cycle of \(duration!) s; use at least \(Rational(1) / step) fps"
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

    /// The length of one cycle in the config's seconds (before
    /// `timing.speed`): `timing.duration`, or else the least common
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

    /// The time played of frame `k`.
    public func time(ofFrame k: Int) -> Rational {
        duration * Rational(Int64(k)) / Rational(Int64(frameCount))
    }

    /// The exact length of one frame, as played.
    public var frameDuration: Rational { duration / Rational(Int64(frameCount)) }
}
