import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension Layer {
    /// The copies a `repeat` draws, first to last: copy i moved by i times
    /// the offset and/or placed i·360°/count clockwise around the circle
    /// (turned outward, or by i times `turn`), and the seconds its
    /// animations start later. The layer itself, once, when it has no `repeat`.
    /// `canvasCenter` is where a layer without a center sits.
    func repeatCopies(canvasCenter: (Double, Double)) -> [(layer: Layer, delay: Rational)] {
        guard let rep = repeats else { return [(self, Rational(0))] }
        let base = center ?? canvasCenter
        return (0..<rep.count).map { i in
            var copy = self
            copy.repeats = nil
            var c = base
            if let o = rep.offset {
                c.0 += Double(i) * o.0
                c.1 += Double(i) * o.1
            }
            if let around = rep.around {
                let angle = Double(i) * 360 / Double(rep.count)
                c.0 += around * sin(angle * .pi / 180)
                c.1 -= around * cos(angle * .pi / 180)
                copy.rotate += rep.turn.map { Double(i) * $0 } ?? angle
            } else if let turn = rep.turn {
                copy.rotate += Double(i) * turn
            }
            copy.center = base
            copy.displacement = (displacement.0 + c.0 - base.0, displacement.1 + c.1 - base.1)
            return (copy, rep.delay * Rational(Int64(i)))
        }
    }
}
