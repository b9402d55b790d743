import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

extension SVGWriter {
    /// The animation playing `track`, its `@keyframes` rule
    /// (`declaration` of each key's value) added once and shared.
    mutating func animation(_ track: VectorTrack, _ declaration: (Double) -> String) -> CSSAnimation {
        var body = ""
        for key in SVGWriter.cssKeys(track) {
            // Rounded down, as the period is: a frame at a key's time lands on or after it.
            body += VectorText.number((key.percent * 10_000).rounded(.down) / 10_000, 4) + "%{" + declaration(key.value)
            switch key.ease {
            case .linear: break
            case .steps(let n):
                body += n == 1 ? ";animation-timing-function:step-end" : ";animation-timing-function:steps(\(n))"
            case .cubicBezier(let a, let b, let c, let d):
                body +=
                    ";animation-timing-function:cubic-bezier(\([a, b, c, d].map { VectorText.factor($0) }.joined(separator: ",")))"
            }
            body += "}"
        }
        let name: String
        if let known = names[body] {
            name = known
        } else {
            name = "\(SVGWriter.prefix)-k\(names.count)"
            names[body] = name
            rules.append("@keyframes \(name){\(body)}")
            rulesBytes += rules[rules.count - 1].utf8.count
        }
        let shift = track.shift.modulo(track.period)
        // Plays end with the loop's last play: (plays · loop + shift) / period repetitions.
        let count = scene.plays == 0 ? nil : (scene.loop * Rational(Int64(scene.plays)) + shift) / track.period
        return CSSAnimation(name: name, period: track.period, shift: shift, count: count)
    }

    /// A track's keys as CSS keyframes: percentages of the period, the
    /// easing of the segment each starts. Two keys at one time (a jump)
    /// cannot share a percentage, so the first moves a thousandth of a
    /// percent earlier and holds (`step-end`) until the second.
    static func cssKeys(_ track: VectorTrack) -> [(percent: Double, value: Double, ease: Easing)] {
        let keys = VectorTrack.merged(track.keys)
        var out: [(percent: Double, value: Double, ease: Easing)] = []
        for (i, k) in keys.enumerated() {
            var percent = (k.time / track.period).doubleValue * 100
            var ease = k.ease
            if i + 1 < keys.count, keys[i + 1].time == k.time {
                percent -= jumpPercent
                ease = .steps(1)
                if let last = out.last, last.percent >= percent { out.removeLast() }
            }
            if i + 1 == keys.count { ease = .linear }
            out.append((max(0, percent), k.value, ease))
        }
        // A jump at 0 %: the value from 0 on is the second key's.
        if out.count >= 2, out[0].percent == 0, out[1].percent == 0 { out.removeFirst() }
        return out
    }

    /// How much earlier than a jump its first key is written, in percent of the period.
    static let jumpPercent = 0.001

    /// An arc stroked clockwise from `start` to `end` degrees (0 at 12
    /// o'clock), as the renderer draws it: a fixed arc is a path; an
    /// animated one is a circle whose one dash runs `end − start` of the
    /// way round, turned so that it begins at `start`.
    mutating func arc(
        radius: Double, width: Double, roundCap: Bool, stroke: Color, name: String?, start: VectorValue,
        end: VectorValue, path: String
    ) throws -> String {
        var attributes =
            " fill=\"none\"" + paint("stroke", stroke, name: name) + " stroke-width=\"\(VectorText.length(width))\""
        if roundCap { attributes += " stroke-linecap=\"round\"" }
        let r = VectorText.length(radius)
        if case .constant(let a0) = start, case .constant(let a1) = end {
            guard let sweep = SVGWriter.sweep(a0, a1) else { return "" }
            if sweep >= 360 { return "<circle r=\"\(r)\"\(attributes)/>" }
            func point(_ a: Double) -> String {
                "\(VectorText.length(radius * sin(a * .pi / 180))) \(VectorText.length(-radius * cos(a * .pi / 180)))"
            }
            return "<path d=\"M\(point(a0))A\(r) \(r) 0 \(sweep > 180 ? 1 : 0) 1 \(point(a0 + sweep))\"\(attributes)/>"
        }
        let circumference = 2 * .pi * radius
        let perDegree = circumference / 360
        let gap = VectorText.length(circumference + width)
        // The dash length: exact when it is one eased curve (one end moves, or both
        // alike) that stays within one turn; else sampled at the frames.
        var dash: VectorTrack?
        switch (start, end) {
        case (.constant(let s), .track(let e)): dash = e.mapped(scale: perDegree, offset: -s * perDegree)
        case (.track(let s), .constant(let e)): dash = s.mapped(scale: -perDegree, offset: e * perDegree)
        case (.track(let s), .track(let e)): dash = VectorTrack.difference(e, s)?.mapped(scale: perDegree)
        default: dash = nil
        }
        if let d = dash, d.range.lowerBound < 0 || d.range.upperBound > circumference { dash = nil }
        if dash == nil { try meter.keys(scene.frames + 1, at: path) }
        let dashTrack =
            dash
            ?? VectorTrack.sampled(
                loop: scene.loop, frames: scene.frames, tolerance: SVGWriter.dashTolerance / Double(scene.scale)
            ) { t in
                (SVGWriter.sweep(start.value(at: t), end.value(at: t)) ?? 0) * perDegree
            }
        let turn = VectorValue.sum(start, .constant(-90))!
        var s = ""
        switch turn {
        case .constant(let a): s += "<g transform=\"rotate(\(VectorText.factor(a)))\">"
        case .track(let t):
            s += "<g\(animationClass([animation(t) { "transform:rotate(\(VectorText.factor($0))deg)" }]))>"
        }
        let dashes = animation(dashTrack) { "stroke-dasharray:\(VectorText.length($0)) \(gap)" }
        s += "<circle r=\"\(r)\"\(attributes)\(animationClass([dashes]))/></g>"
        return s
    }

    /// How far a sampled dash may stray, in pixels of arc length.
    static let dashTolerance = 0.25

    /// The degrees cairo strokes from `a0` to `a1`: the end moved on by
    /// whole turns until it is past the start, a full turn at most; nil
    /// when they meet (nothing drawn).
    static func sweep(_ a0: Double, _ a1: Double) -> Double? {
        if a1 - a0 >= 360 { return 360 }
        var d = a1 - a0
        while d < 0 { d += 360 }
        return d == 0 ? nil : d
    }
}
