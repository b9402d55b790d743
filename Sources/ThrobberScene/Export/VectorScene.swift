import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// A config's scene as vector formats describe it: a tree of nodes, each a
/// chain of transforms (``VectorLevel``) around a shape, a picture, an
/// embedded Lottie animation or child nodes, animated over one loop.
///
/// The loop is the one the frames show: the cycle (played `bounce` forward
/// and back), begun at the frame `timing.start` picks; repeat copies are
/// laid out as ``SceneRenderer`` lays them out. Frame k of the loop
/// (k·loop/frames) shows what frame k of a GIF, APNG or WebP shows.
struct VectorScene: Sendable {
    /// What a node draws, centered on its chain's origin.
    enum Content: Sendable {
        case circle(radius: Double, fill: Color)
        case rect(width: Double, height: Double, corner: Double, fill: Color)
        /// An arc stroked clockwise from `start` to `end` degrees (0 at 12 o'clock).
        case arc(radius: Double, width: Double, roundCap: Bool, stroke: Color, start: VectorValue, end: VectorValue)
        /// A path filled and/or stroked, its trim and morph fixed or animated.
        case path(PathContent)
        case image(SceneImage)
        /// `time`: seconds into the file's loop, over the scene's loop.
        case lottie(SceneLottie, time: VectorTrack)
        case group([Node])
    }

    /// One drawn thing and its transforms, outermost first.
    struct Node: Sendable {
        var levels: [VectorLevel]
        var content: Content
        /// The layer's JSON path in the config (`layers[1].group[0]`), for messages.
        var path: String
        /// The theme name of the content's fill or stroke; nil: a color.
        var paintName: String? = nil
        /// A text layer's words, the accessible name of what it draws.
        var label: String? = nil
    }

    /// The config, for messages.
    let file: String
    /// The canvas in points, and pixels per point.
    let width: Rational, height: Rational
    let scale: Int
    let background: Color
    /// The theme name of the background; nil: a color.
    let backgroundName: String?
    /// The config's named colors, its accessible name and its reduced motion.
    let theme: SceneTheme
    let title: String
    let reducedMotion: ReducedMotion?
    /// One loop in seconds played, and the frames it is cut into.
    let loop: Rational
    let frames: Int
    /// 0 = forever, else the number of plays.
    let plays: Int
    /// What is drawn, bottom first.
    private(set) var nodes: [Node] = []

    private let step: Rational
    private let speed: Rational
    /// Where the loop starts, in seconds played of the scene (forward play).
    private let start: Rational
    /// Half the loop when it bounces.
    private let bounceHalf: Rational?

    /// The scene of `config`, its nodes and keys counted by `meter`.
    /// Throws ``ThrobberError/Kind/data`` naming the config and JSON path
    /// for what no vector animation can say: a frames config, `duplicate`,
    /// the clock's own errors, and a scene over the meter's limits.
    init(config: SceneConfig, meter: VectorMeter) throws {
        file = config.file
        guard case .layers(let layers) = config.content else {
            throw ThrobberError(
                .data,
                "\(config.file): frames: a frames config has no shapes to export; render it to GIF, APNG or WebP, or draw it with layers"
            )
        }
        if config.duplicate != .every(1) {
            throw ThrobberError(
                .data,
                "\(config.file): duplicate: frames shown more than once have no vector form (vector players draw every moment); remove duplicate, or render to GIF, APNG or WebP"
            )
        }
        let clock = try SceneClock(config: config, layers: layers)
        width = config.canvas.width!
        height = config.canvas.height!
        scale = config.canvas.scale
        background = config.canvas.background
        backgroundName = config.canvas.backgroundName
        theme = config.theme
        title = config.accessibleName
        reducedMotion = config.reducedMotion
        plays = config.loop
        step = config.timing.step
        speed = config.timing.speed
        let n = clock.frameCount
        let uniform = Array(repeating: clock.frameDuration, count: n)
        let poster = config.timing.start.map { SceneJob.frame(at: $0 / config.timing.speed, durations: uniform) } ?? 0
        start = clock.time(ofFrame: poster)
        if config.bounce && n > 1 {
            let half = clock.frameDuration * Rational(Int64(n - 1))
            bounceHalf = half
            loop = half + half
            frames = 2 * n - 2
        } else {
            bounceHalf = nil
            loop = clock.duration
            frames = n
        }
        let center = (width.doubleValue / 2, height.doubleValue / 2)
        nodes = try layers.enumerated().flatMap { i, layer in
            try node(
                layer, path: "layers[\(i)]", extraDelay: Rational(0), canvasCenter: center, outerScale: 1, meter: meter)
        }
    }

    /// The frame times of one loop: k·loop/frames.
    func time(ofFrame k: Int) -> Rational { loop * Rational(Int64(k)) / Rational(Int64(frames)) }

    /// A periodic curve of scene time as it plays over the loop: moved to
    /// the loop's start, and played forward and back when the loop bounces
    /// (its keys counted by `meter` for the layer at `path` before they
    /// are made).
    func overLoop(_ track: VectorTrack, at path: String, _ meter: VectorMeter) throws -> VectorTrack {
        guard let half = bounceHalf else {
            var t = track
            t.shift = (t.shift + start).modulo(t.period)
            return t
        }
        // Forward, then each segment again backward.
        try meter.keys(2 * track.unrolledKeyCount(over: half, holds: true), at: path)
        var t = track.bounced(half: half, nudge: loop / Rational(Int64(frames * 1000)))
        t.shift = start.modulo(t.period)
        return t
    }

    private func track(_ a: Animation, _ extraDelay: Rational, at path: String, _ meter: VectorMeter) throws
        -> VectorTrack
    {
        let track = VectorTrack(a, step: step, speed: speed, extraDelay: extraDelay, start: Rational(0))
        try meter.keys(track.keys.count, at: path)
        return try overLoop(track, at: path, meter)
    }

    /// The nodes of `layer` (one per repeat copy), counted by `meter`.
    private func node(
        _ layer: Layer, path: String, extraDelay: Rational, canvasCenter: (Double, Double), outerScale: Double,
        meter: VectorMeter
    ) throws -> [Node] {
        if layer.repeats != nil {
            return try layer.repeatCopies(canvasCenter: canvasCenter).flatMap { copy, delay in
                try node(
                    copy, path: path, extraDelay: extraDelay + delay, canvasCenter: canvasCenter,
                    outerScale: outerScale, meter: meter)
            }
        }
        try meter.node(at: path)
        let c = layer.center ?? canvasCenter
        let tracks = try layer.animations.map { ($0.property, try track($0, extraDelay, at: path, meter)) }
        func of(_ p: AnimatedProperty) -> [VectorTrack] { tracks.filter { $0.0 == p }.map(\.1) }
        var chain = try self.chain(layer, at: c, of, outerScale: outerScale, path: path, meter: meter)
        let content: Content
        var paintName: String?
        switch layer.kind {
        case .circle(let r):
            content = .circle(radius: r, fill: layer.fill)
            paintName = layer.fillName
        case .rect(let w, let h, let corner):
            content = .rect(width: w, height: h, corner: corner, fill: layer.fill)
            paintName = layer.fillName
        case .arc(let arc):
            let start = of(.start).last.map(VectorValue.track) ?? .constant(arc.start)
            let end = of(.end).last.map(VectorValue.track) ?? .constant(arc.end)
            content = .arc(
                radius: arc.radius, width: arc.width, roundCap: arc.roundCap, stroke: layer.stroke, start: start,
                end: end)
            paintName = layer.strokeName
        case .path(let shape):
            content = .path(
                PathContent(
                    shape: shape, fill: layer.fill, stroke: layer.stroke, fillName: layer.fillName,
                    strokeName: layer.strokeName,
                    start: of(.start).last.map(VectorValue.track) ?? .constant(shape.trim.start),
                    end: of(.end).last.map(VectorValue.track) ?? .constant(shape.trim.end),
                    offset: of(.offset).last.map(VectorValue.track) ?? .constant(shape.trim.offset),
                    morph: of(.d).last))
            paintName = shape.filled ? layer.fillName : layer.strokeName
        case .image(let picture): content = .image(picture)
        case .lottie(let lottie):
            content = .lottie(lottie, time: try clock(of: lottie, extraDelay: extraDelay, at: path, meter))
        case .group(let children):
            chain.append(VectorLevel(anchorX: c.0, anchorY: c.1))
            content = .group(
                try children.enumerated().flatMap { j, child in
                    try node(
                        child, path: "\(path).group[\(j)]", extraDelay: extraDelay, canvasCenter: canvasCenter,
                        outerScale: outerScale * layer.scale, meter: meter)
                })
        }
        return [
            Node(
                levels: VectorLevel.simplified(chain), content: content, path: path, paintName: paintName,
                label: layer.text)
        ]
    }

    /// A layer's transforms at `c`, from the canvas inward, in the order the
    /// renderer composes them: position and translations, rotations, scales
    /// (a flip's cos θ among them); the opacity on the first.
    private func chain(
        _ layer: Layer, at c: (Double, Double), _ of: (AnimatedProperty) -> [VectorTrack], outerScale: Double,
        path: String, meter: VectorMeter
    ) throws -> [VectorLevel] {
        var chain = [
            VectorLevel(
                x: .constant(c.0 + layer.displacement.0), y: .constant(c.1 + layer.displacement.1),
                opacity: try opacity(layer, of(.opacity), at: path, meter))
        ]
        chain += of(.translateX).map { VectorLevel(x: .track($0)) }
        chain += of(.translateY).map { VectorLevel(y: .track($0)) }
        chain.append(VectorLevel(rotate: .constant(layer.rotate)))
        chain += of(.rotate).map { VectorLevel(rotate: .track($0)) }
        chain.append(VectorLevel(scaleX: .constant(layer.scale), scaleY: .constant(layer.scale)))
        chain += of(.scale).map { VectorLevel(scaleX: .track($0), scaleY: .track($0)) }
        chain += of(.scaleX).map { VectorLevel(scaleX: .track($0)) }
        chain += of(.scaleY).map { VectorLevel(scaleY: .track($0)) }
        let flips = of(.rotateY)
        if !flips.isEmpty {
            // cos θ has no eased form: sampled so the drawn width stays within 0.25 px.
            let radius = VectorScene.radius(layer) * abs(layer.scale) * outerScale * Double(scale)
            let tolerance = VectorScene.flipWidthTolerance / max(2 * radius, 1)
            try meter.keys(frames + 1, at: path)
            let flip = VectorTrack.sampled(loop: loop, frames: frames, tolerance: tolerance) { t in
                cos(flips.reduce(0) { $0 + $1.value(at: t) } * .pi / 180)
            }
            chain.append(VectorLevel(scaleX: .of(flip)))
        }
        return chain
    }

    /// A Lottie layer's clock: seconds into the file's loop over the scene's
    /// loop, a ramp repeating every loop of the file (played `timing.speed`
    /// times as fast), started `extraDelay` seconds late.
    private func clock(of lottie: SceneLottie, extraDelay: Rational, at path: String, _ meter: VectorMeter) throws
        -> VectorTrack
    {
        let period = lottie.period / speed
        let ramp = VectorTrack(
            period: period,
            keys: [
                .init(time: 0, value: 0, ease: .linear),
                .init(time: period, value: lottie.period.doubleValue, ease: .linear),
            ],
            shift: (Rational(0) - extraDelay / speed).modulo(period))
        return try overLoop(ramp, at: path, meter)
    }

    /// The layer's opacity, `opacity` · its animations, kept in 0…1 as
    /// the renderer keeps it: exact for one animation that stays in range,
    /// else sampled within half a level of 8 bits.
    private func opacity(_ layer: Layer, _ tracks: [VectorTrack], at path: String, _ meter: VectorMeter) throws
        -> VectorValue
    {
        let base = layer.opacity
        if tracks.isEmpty { return .constant(min(1, max(0, base))) }
        if tracks.count == 1 {
            let t = tracks[0].mapped(scale: base)
            let r = t.range
            if r.lowerBound >= 0 && r.upperBound <= 1 { return .track(t) }
        }
        try meter.keys(frames + 1, at: path)
        return .of(
            VectorTrack.sampled(loop: loop, frames: frames, tolerance: VectorScene.opacityTolerance) { t in
                min(1, max(0, tracks.reduce(base) { $0 * $1.value(at: t) }))
            })
    }

    /// How far a drawn width may stray from the exact one where a flip is
    /// sampled, in pixels: well under what anti-aliasing shows.
    static let flipWidthTolerance = 0.25
    /// How far a sampled opacity may stray: half of one 8-bit level.
    static let opacityTolerance = 0.5 / 255
}
