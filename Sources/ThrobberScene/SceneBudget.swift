import FoundationEssentials
import Glibc
import ThrobberCore

/// Limits that keep a valid config finishable: how many items a frame
/// draws (repeat counts multiply through nested groups), how large any item
/// can become (scales multiply too, and a cubic-bezier may overshoot), and
/// how many drawings a whole animation makes. Checked when the config is
/// read, before anything is drawn, with the JSON path that multiplies.
enum SceneBudget {
    /// Most shapes, images, groups and Lottie layers' layers and shapes
    /// drawn in one frame, every copy counted.
    static let maxItemsPerFrame = 100_000
    /// Most item drawings in one animation: frames × items a frame.
    static let maxDrawings = 5_000_000
    /// Widest an item may ever be drawn, in pixels: cairo's coordinates
    /// are 24.8 fixed point, and a shape much larger than the canvas costs
    /// time in proportion to its size while showing nothing more.
    static let maxExtent = 1_000_000.0

    /// Items one frame draws: every shape and image once per copy, a
    /// group once per copy besides its children (an empty one too: each
    /// copy is a transform drawn and a node of a vector file), a Lottie
    /// layer its own layers and shapes (``LottieFile/drawnItems``) once per
    /// copy (saturating at `Int.max / 2`).
    static func items(_ layers: [Layer]) -> Int {
        layers.reduce(0) { sum, layer in
            let one: Int
            switch layer.kind {
            case .group(let children): one = min(Int.max / 2, 1 + items(children))
            case .lottie(let lottie): one = lottie.file.drawnItems
            case .path(let shape): one = shape.drawnItems
            default: one = 1
            }
            let (n, o) = one.multipliedReportingOverflow(by: layer.repeats?.count ?? 1)
            return o ? Int.max / 2 : min(Int.max / 2, sum + n)
        }
    }

    /// Checks the items a frame draws and the size every item can reach,
    /// `layers` at `path` (`layers`) drawn `canvasScale` pixels a point.
    static func check(_ layers: [Layer], path: String, canvasScale: Double, reader r: ConfigReader) throws {
        var total = 0
        for (i, layer) in layers.enumerated() {
            total += try check(layer, "\(path)[\(i)]", above: canvasScale, reader: r)
            guard total <= maxItemsPerFrame else {
                throw r.error(
                    path, "\(total) drawn items a frame, more than \(maxItemsPerFrame): use fewer layers or copies")
            }
        }
    }

    /// The items `layer` draws a frame, after checking it and its children.
    private static func check(_ layer: Layer, _ path: String, above: Double, reader r: ConfigReader) throws -> Int {
        let scale = above * scaleBound(layer)
        var one = 1
        let size: Double
        switch layer.kind {
        case .circle(let radius): size = 2 * radius
        case .rect(let w, let h, _): size = max(w, h)
        case .arc(let arc): size = 2 * arc.radius + arc.width
        case .path(let shape):
            size = 2 * shape.reach
            one = shape.drawnItems
        case .image(let picture):
            size = Double(max(picture.image.width, picture.image.height)) / Double(picture.pixelScale)
        case .lottie(let lottie):
            size = Double(max(lottie.file.width, lottie.file.height))
            one = lottie.file.drawnItems
        case .group(let children):
            size = 0
            one = 1
            for (i, child) in children.enumerated() {
                one += try check(child, "\(path).group[\(i)]", above: scale, reader: r)
                guard one <= maxItemsPerFrame else {
                    throw r.error(
                        "\(path).group",
                        "\(one) drawn items a frame, more than \(maxItemsPerFrame): use fewer layers or copies")
                }
            }
        }
        let extent = size * scale
        guard extent.isFinite, extent <= maxExtent else {
            throw r.error(
                path,
                "can be drawn \(number(extent)) pixels across (its scale, scale animations, their easing and the groups around it multiply to \(number(scale))), more than \(Int(maxExtent)): lower the scale"
            )
        }
        let copies = layer.repeats?.count ?? 1
        guard one * copies <= maxItemsPerFrame else {
            throw r.error(
                "\(path).repeat.count",
                "\(copies) copies of \(one) drawn items are \(one * copies) drawn items a frame, more than \(maxItemsPerFrame)"
            )
        }
        return one * copies
    }

    /// `x` for a message: whole below a million, else like 2.5e+12.
    private static func number(_ x: Double) -> String {
        guard x.isFinite else { return "infinitely many" }
        return x < 1e6 ? cFormat("%.4g", x) : cFormat("%.3g", x)
    }

    /// The largest factor the layer's own scale and scale animations can
    /// reach, on either axis.
    private static func scaleBound(_ layer: Layer) -> Double {
        var x = abs(layer.scale)
        var y = x
        for a in layer.animations {
            let b = bound(a)
            switch a.property {
            case .scale:
                x *= b
                y *= b
            case .scaleX: x *= b
            case .scaleY: y *= b
            default: break
            }
        }
        return max(x, y)
    }

    /// The largest magnitude an animation's value can reach. Between two
    /// values a and b eased by a cubic Bézier, the value is a + (b − a)·y
    /// with y between min(0, y1, y2) and max(1, y1, y2) (the curve lies in
    /// the hull of its control points); other easings stay within a…b.
    static func bound(_ animation: Animation) -> Double {
        func hull(_ e: Easing) -> (Double, Double) {
            if case .cubicBezier(_, let y1, _, let y2) = e { return (min(0, y1, y2), max(1, y1, y2)) }
            return (0, 1)
        }
        func segments(_ pairs: [(Double, Double, Easing)]) -> Double {
            pairs.reduce(0) { m, p in
                let (lo, hi) = hull(p.2)
                return max(m, abs(p.0 + (p.1 - p.0) * lo), abs(p.0 + (p.1 - p.0) * hi))
            }
        }
        switch animation.kind {
        case .keyframes(let k):
            let single = k.keys.map { abs($0.value) }.max() ?? 0
            return max(single, segments(zip(k.keys, k.keys.dropFirst()).map { ($0.value, $1.value, $0.ease) }))
        case .step(let s):
            let v = s.values.map(\.doubleValue)
            return segments(zip(v, v.dropFirst()).map { ($0, $1, s.ease) })
        }
    }
}
