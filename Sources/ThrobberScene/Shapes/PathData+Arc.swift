import Glibc

extension PathData.Builder {
    /// A: the elliptical arc from the current point to `to`, always as four cubics (equal quarters of its
    /// angle) so a morph's structure never depends on the numbers. SVG's implementation notes decide the
    /// ellipse: negative radii count as positive, radii too small to reach `to` grow until they just do,
    /// a zero radius makes a straight line (four cubics along it), and an arc ending where it starts is
    /// four cubics at that point. `rotation` is in degrees.
    mutating func arc(
        radii: (Double, Double), rotation: Double, large: Bool, sweep: Bool, to: Point
    ) throws(PathData.Problem) {
        try reserve(4)
        let from = current
        let (rx, ry) = (abs(radii.0), abs(radii.1))
        if from == to {
            for _ in 0..<4 { try append(from, from, from) }
        } else if rx == 0 || ry == 0 {
            for i in 1...4 {
                let t = Double(i) / 4
                try line(to: i == 4 ? to : Point(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t))
            }
        } else {
            let ellipse = PathData.CenterArc(
                from: from, to: to, radii: (rx, ry), rotation: rotation, large: large, sweep: sweep)
            try check(ellipse.center)
            let quarter = ellipse.sweepAngle / 4
            let k = 4 / 3 * tan(quarter / 4)
            for i in 0..<4 {
                let a = ellipse.startAngle + Double(i) * quarter
                let b = a + quarter
                try append(ellipse.point(a, k), ellipse.point(b, -k), i == 3 ? to : ellipse.point(b, 0))
            }
        }
    }
}

extension PathData {
    /// An arc of an ellipse in center form, from SVG's endpoint form (SVG 2, "Elliptical arc
    /// implementation notes": conversion from endpoint to center parameterization).
    struct CenterArc {
        /// The ellipse's center, in points.
        var center: PathGeometry.Point
        /// The radii, grown when the given ones could not reach the end.
        var rx: Double, ry: Double
        /// The cosine and sine of the ellipse's rotation.
        var cosine: Double, sine: Double
        /// The angle (on the unrotated, unit-circle form of the ellipse) where the arc starts, in radians.
        var startAngle = 0.0
        /// How far the arc turns, in radians: positive with `sweep`, within ±2π.
        var sweepAngle = 0.0

        /// The arc from `from` to `to` (not equal) on the ellipse of radii `radii` (both above 0)
        /// rotated `rotation` degrees: of its two ellipses and their four arcs, the one `large` and `sweep`
        /// choose.
        init(
            from: PathGeometry.Point, to: PathGeometry.Point, radii: (Double, Double), rotation: Double,
            large: Bool, sweep: Bool
        ) {
            let angle = rotation.truncatingRemainder(dividingBy: 360) * .pi / 180
            (cosine, sine) = (cos(angle), sin(angle))
            let (dx, dy) = ((from.x - to.x) / 2, (from.y - to.y) / 2)
            let x1 = cosine * dx + sine * dy
            let y1 = -sine * dx + cosine * dy
            (rx, ry) = radii
            // Λ = (x1/rx)² + (y1/ry)²; its root times the larger radius, figured with the radii over that
            // radius so tiny radii neither overflow nor underflow.
            let most = max(rx, ry)
            let (ux, uy) = (rx / most, ry / most)
            let reach = hypot(x1 / ux, y1 / uy)
            var factor = 0.0
            if reach >= most {
                (rx, ry) = (ux * reach, uy * reach)
            } else {
                let root = reach / most
                factor = ((1 - root) * (1 + root)).squareRoot() / root * (large == sweep ? -1 : 1)
            }
            let cx = factor * (y1 / ry) * rx
            let cy = -factor * (x1 / rx) * ry
            center = PathGeometry.Point(
                cosine * cx - sine * cy + (from.x + to.x) / 2, sine * cx + cosine * cy + (from.y + to.y) / 2)
            startAngle = atan2((y1 - cy) / ry, (x1 - cx) / rx)
            sweepAngle = atan2((-y1 - cy) / ry, (-x1 - cx) / rx) - startAngle
            if !sweep && sweepAngle > 0 {
                sweepAngle -= 2 * .pi
            } else if sweep && sweepAngle < 0 {
                sweepAngle += 2 * .pi
            }
        }

        /// The point of the ellipse at `angle`, moved `k` times its derivative by the angle: the arc's end
        /// when `k` is 0, a cubic's control point otherwise.
        func point(_ angle: Double, _ k: Double) -> PathGeometry.Point {
            let (c, s) = (cos(angle), sin(angle))
            let u = rx * (c - k * s)
            let v = ry * (s + k * c)
            return PathGeometry.Point(center.x + u * cosine - v * sine, center.y + u * sine + v * cosine)
        }
    }
}
