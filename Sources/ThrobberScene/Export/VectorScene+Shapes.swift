import Glibc
import ThrobberCodecs
import ThrobberCore

extension VectorScene {
    /// A path layer or glyph as a vector file draws it.
    struct PathContent: Sendable {
        var shape: ScenePath
        var fill: Color, stroke: Color
        /// The theme names of the fill and the stroke; nil: a color.
        var fillName: String?, strokeName: String?
        /// The trim, in fractions of each subpath's length.
        var start: VectorValue, end: VectorValue, offset: VectorValue
        /// The morph's key index over the loop; nil: no morph.
        var morph: VectorTrack?

        /// The shape at loop time `t`.
        func geometry(at t: Rational) -> PathGeometry { shape.shape(morphAt: morph?.value(at: t)) }
        /// Whether the stroke is trimmed at some time.
        var trimmed: Bool {
            !(start.isConstant(0) && end.isConstant(1))
        }
    }

    /// How far from its origin a layer draws, in points (for tolerances).
    static func radius(_ layer: Layer) -> Double {
        switch layer.kind {
        case .circle(let r): return r
        case .rect(let w, let h, _): return hypot(w, h) / 2
        case .arc(let a): return a.radius + a.width / 2
        case .path(let shape): return shape.reach
        case .image(let p): return hypot(Double(p.image.width), Double(p.image.height)) / 2 / Double(p.pixelScale)
        case .lottie(let l): return hypot(Double(l.file.width), Double(l.file.height)) / 2
        case .group(let children):
            let c = layer.center ?? (0, 0)
            return children.reduce(0) { most, child in
                let o = child.center ?? c
                var spread = hypot(o.0 - c.0, o.1 - c.1) + radius(child) * abs(child.scale)
                if let rep = child.repeats {
                    spread += (rep.around ?? 0) + (rep.offset.map { hypot($0.0, $0.1) * Double(rep.count) } ?? 0)
                }
                return max(most, spread)
            }
        }
    }
}
