import Foundation

extension PathReferenceTests {
    /// The length of a cubic Bézier: its speed integrated by 5-point
    /// Gauss–Legendre over 64 pieces.
    static func cubicLength(
        _ p0: (Double, Double), _ p1: (Double, Double), _ p2: (Double, Double), _ p3: (Double, Double)
    ) -> Double {
        let nodes = [
            0.0, -0.538_469_310_105_683_1, 0.538_469_310_105_683_1, -0.906_179_845_938_664_0, 0.906_179_845_938_664_0,
        ]
        let weights = [
            0.568_888_888_888_888_9, 0.478_628_670_499_366_5, 0.478_628_670_499_366_5, 0.236_926_885_056_189_1,
            0.236_926_885_056_189_1,
        ]
        func speed(_ t: Double) -> Double {
            let u = 1 - t
            let dx = 3 * u * u * (p1.0 - p0.0) + 6 * u * t * (p2.0 - p1.0) + 3 * t * t * (p3.0 - p2.0)
            let dy = 3 * u * u * (p1.1 - p0.1) + 6 * u * t * (p2.1 - p1.1) + 3 * t * t * (p3.1 - p2.1)
            return (dx * dx + dy * dy).squareRoot()
        }
        let pieces = 64
        return (0..<pieces).reduce(0.0) { total, k in
            let a = Double(k) / Double(pieces)
            let h = 0.5 / Double(pieces)
            return total + zip(nodes, weights).reduce(0.0) { $0 + $1.1 * speed(a + h + h * $1.0) } * h
        }
    }
}

/// The two files of a PathReferenceTests case, written from the same
/// fields: Throbber's config (one `path` layer per shape, one frame) and the
/// SVG by hand (the SVG attribute of the same name for each key).
extension PathReferenceTests.Case {
    var config: String {
        """
        {"version": 1, "canvas": {"width": \(size), "height": \(size), "scale": \(scale)},
         "timing": {"fps": 25, "duration": 0.04},
         "layers": [\(shapes.map(\.layer).joined(separator: ",\n  "))]}
        """
    }

    var svg: String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)">
        \(shapes.map(\.svgPaths).joined(separator: "\n"))
        </svg>
        """
    }
}

extension PathReferenceTests.Shape {
    /// A number as JSON and SVG read it: no exponent, shortest digits.
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(format: "%.10g", x)
    }

    var layer: String {
        var path = [#""d": "\#(parts.joined(separator: " "))""#]
        if shift == nil { path.append(#""origin": [0, 0]"#) }
        if let fillRule { path.append(#""fillRule": "\#(fillRule)""#) }
        if stroke != nil { path.append(#""width": \#(Self.number(width))"#) }
        if let cap { path.append(#""cap": "\#(cap)""#) }
        if let join { path.append(#""join": "\#(join)""#) }
        if let miterLimit { path.append(#""miterLimit": \#(Self.number(miterLimit))"#) }
        if let dash { path.append(#""dash": [\#(dash.map(Self.number).joined(separator: ", "))]"#) }
        if let dashOffset { path.append(#""dashOffset": \#(Self.number(dashOffset))"#) }
        if let trim {
            path.append(
                #""trim": {"start": \#(Self.number(trim.start)), "end": \#(Self.number(trim.end)), "offset": \#(Self.number(trim.offset))}"#
            )
        }
        var layer = [#""path": {\#(path.joined(separator: ", "))}"#]
        if shift == nil { layer.append(#""center": [0, 0]"#) }
        if let fill { layer.append(#""fill": "\#(fill)""#) }
        if let stroke { layer.append(#""stroke": "\#(stroke)""#) }
        return "{" + layer.joined(separator: ", ") + "}"
    }

    /// `name="#rrggbb"`, and `name-opacity` for a `#rrggbbaa` color.
    static func paint(_ name: String, _ color: String) -> String {
        guard color.hasPrefix("#"), color.count == 9, let alpha = Int(color.suffix(2), radix: 16) else {
            return #"\#(name)="\#(color)""#
        }
        return #"\#(name)="\#(color.prefix(7))" \#(name)-opacity="\#(number(Double(alpha) / 255))""#
    }

    /// The shape as SVG `<path>` elements: one, or for a trim one per subpath.
    var svgPaths: String {
        var common: [String] = []
        if let shift { common.append(#"transform="translate(\#(Self.number(shift.x)) \#(Self.number(shift.y)))""#) }
        if let fill {
            common.append(Self.paint("fill", fill))
        } else if stroke != nil {
            common.append(#"fill="none""#)
        }
        if let fillRule { common.append(#"fill-rule="\#(fillRule)""#) }
        if let stroke {
            common.append(Self.paint("stroke", stroke))
            common.append(#"stroke-width="\#(Self.number(width))""#)
        }
        if let cap { common.append(#"stroke-linecap="\#(cap)""#) }
        if let join { common.append(#"stroke-linejoin="\#(join)""#) }
        if let miterLimit { common.append(#"stroke-miterlimit="\#(Self.number(miterLimit))""#) }
        if let dash { common.append(#"stroke-dasharray="\#(dash.map(Self.number).joined(separator: " "))""#) }
        if let dashOffset { common.append(#"stroke-dashoffset="\#(Self.number(dashOffset))""#) }
        guard let trim else {
            return #"<path d="\#(parts.joined(separator: " "))" \#(common.joined(separator: " "))/>"#
        }
        precondition(fill == nil, "a trimmed case is stroked only: its SVG is one path per subpath")
        // The SVG definition of a trim: one dash a = |end − start| long,
        // starting b = min(start, end) + offset along (taken round the
        // subpath, modulo its length: the dash period below is not 1), and
        // a gap of the rest of the length and 0.1 % more (ScenePath.Trim.gap
        // says why), in fractions of each subpath's length.
        let a = abs(trim.end - trim.start)
        let moved = min(trim.start, trim.end) + trim.offset
        let b = moved - moved.rounded(.down)
        let g = 1 + 0.001 - a
        return parts.enumerated().map { i, part in
            let length = lengths?[i]
            let unit = length ?? 1
            let dash = [
                length == nil ? #"pathLength="1""# : "",
                #"stroke-dasharray="\#(Self.number(a * unit)) \#(Self.number(g * unit))""#,
                #"stroke-dashoffset="\#(Self.number(-b * unit))""#,
            ].filter { !$0.isEmpty }
            return #"<path d="\#(part)" \#((common + dash).joined(separator: " "))/>"#
        }.joined(separator: "\n")
    }
}
