import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension LottieWriter {
    /// The shapes that draw a circle, rectangle or arc centered on the
    /// origin: its path, then its fill or its trim and stroke, the color
    /// a slot when it is the theme name `paintName`.
    func items(_ content: VectorScene.Content, paintName: String? = nil) throws -> [JSON] {
        switch content {
        case .circle(let r, let fill):
            let ellipse = LottieWriter.object([
                ("ty", .string("el")), ("p", fixedPair(0, 0)), ("s", fixedPair(2 * r, 2 * r)),
            ])
            return [ellipse, paint("fl", fill, paintName)]
        case .rect(let w, let h, let corner, let fill):
            let rect = LottieWriter.object([
                ("ty", .string("rc")), ("p", fixedPair(0, 0)), ("s", fixedPair(w, h)),
                ("r", fixed(min(corner, w / 2, h / 2))),
            ])
            return [rect, paint("fl", fill, paintName)]
        case .arc(let radius, let width, let roundCap, let stroke, let start, let end):
            let ellipse = LottieWriter.object([
                ("ty", .string("el")), ("p", fixedPair(0, 0)), ("s", fixedPair(2 * radius, 2 * radius)),
            ])
            var line = paint("st", stroke, paintName)
            if case .object(var m) = line {
                m.append((key: "w", value: wrap(fixed(width))))
                m.append((key: "lc", value: wrap(.number(roundCap ? "2" : "1"))))
                m.append((key: "lj", value: wrap(.number("1"))))
                line = .object(m)
            }
            return [ellipse, try trim(start: start, end: end), line]
        case .path(let p):
            return try pathItems(p)
        case .image, .lottie, .group:
            return []
        }
    }

    /// The members that say what a picture's or Lottie file's layer
    /// draws: its image asset, or its precomposition and time remap.
    mutating func content(_ node: VectorScene.Node) throws -> [(String, JSON)] {
        switch node.content {
        case .image(let picture):
            // One asset for each picture, however many layers show it.
            let embedded = try pictures.embed(picture, file: scene.file, path: node.path)
            if let id = pictures.names["\(embedded.number)"] { return [("refId", .string(id))] }
            let id = "i\(assets.count)"
            pictures.names["\(embedded.number)"] = id
            try append(
                asset: LottieWriter.object([
                    ("id", .string(id)), ("w", .number("\(picture.image.width)")),
                    ("h", .number("\(picture.image.height)")), ("u", .string("")), ("p", .string(embedded.uri)),
                    ("e", .number("1")),
                ]))
            return [("refId", .string(id))]
        case .lottie(let lottie, let time):
            return try precomposition(lottie, time: time, path: node.path)
        case .circle, .rect, .arc, .path, .group:
            return []
        }
    }

    /// A fill (`fl`) or stroke (`st`) of color `c`, its alpha the opacity.
    func paint(_ type: String, _ c: Color, _ name: String?) -> JSON {
        LottieWriter.object([
            ("ty", .string(type)), ("c", color(c, slot: name)),
            ("o", fixed(Double(c.a) / 255 * 100, VectorText.factorDigits - 2)),
        ])
    }

    /// Trim paths keeping the part of the circle from `start` to `end`
    /// degrees clockwise from 12 o'clock, as cairo strokes it.
    ///
    /// Lottie's ellipse path starts at 12 o'clock and runs clockwise, so
    /// trim start and end are the angles in percent of a turn. Both
    /// animated stay exact when a fixed offset keeps them within one turn,
    /// end never before start; otherwise the offset follows `start` and the
    /// length is sampled at the frames.
    private func trim(start: VectorValue, end: VectorValue) throws -> JSON {
        let times = (0..<scene.frames).map { scene.time(ofFrame: $0) }
        let offset = start.track?.range.lowerBound ?? start.value(at: 0)
        let fits =
            (end.track?.range.upperBound ?? end.value(at: 0)) - offset <= 360
            && times.allSatisfy { t in
                let d = end.value(at: t) - start.value(at: t)
                return d > 0 && d <= 360
            }
        let percent = 100.0 / 360
        let s: VectorValue
        let e: VectorValue
        let o: VectorValue
        if fits {
            s = VectorValue.sum(start, .constant(-offset))!
            e = VectorValue.sum(end, .constant(-offset))!
            o = .constant(offset)
        } else {
            s = .constant(0)
            try meter.keys(scene.frames + 1, at: path)
            e = .of(
                VectorTrack.sampled(loop: scene.loop, frames: scene.frames, tolerance: 0.01) { t in
                    SVGWriter.sweep(start.value(at: t), end.value(at: t)) ?? 0
                })
            o = start
        }
        return LottieWriter.object([
            ("ty", .string("tm")), ("s", try value(s, scale: percent, digits: 4, turns: false)),
            ("e", try value(e, scale: percent, digits: 4, turns: false)),
            ("o", try value(o, scale: 1, digits: VectorText.factorDigits, turns: false)), ("m", .number("1")),
        ])
    }
}
