import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// One CSS animation of an SVG: a `@keyframes` rule played over its
/// period, started `shift` seconds in.
struct CSSAnimation: Hashable {
    var name: String
    var period: Rational
    /// In 0 ..< period.
    var shift: Rational
    /// Repetitions played; nil: forever.
    var count: Rational?
}

extension SVGWriter {
    /// ` class="…"` naming the animation class that plays `animations`
    /// (one class per different list, its rules made by ``style()``).
    mutating func animationClass(_ animations: [CSSAnimation]) -> String {
        if let known = classNames[animations] { return " class=\"\(known)\"" }
        let name = "\(SVGWriter.prefix)-a\(classes.count)"
        classNames[animations] = name
        classes.append(animations)
        // For the meter, before ``style()`` writes them: the class's rule and
        // its reduced-motion twin, each shorthand about 48 bytes.
        rulesBytes += 2 * (name.utf8.count + animations.count * 48)
        return " class=\"\(name)\""
    }

    /// The `<style>` text: the keyframes, the theme's custom properties
    /// (and their dark values), each animation class, and the reduced
    /// motion; every rule scoped to the root's class.
    func style() -> String {
        let root = "." + SVGWriter.prefix
        var s = rules.joined()
        let used = scene.theme.entries.filter { usedNames.contains($0.name) }
        if !used.isEmpty {
            s += root + "{" + used.map { property($0, .light) }.joined(separator: ";") + "}"
            let dark = used.filter { $0.dark != nil && !$0.current }
            if !dark.isEmpty {
                s +=
                    "@media (prefers-color-scheme:dark){" + root + "{"
                    + dark.map { property($0, .dark) }.joined(separator: ";") + "}}"
            }
        }
        for (i, list) in classes.enumerated() {
            s += "\(root) \(root)-a\(i){animation:" + list.map { css($0, nil) }.joined(separator: ",") + "}"
        }
        if let reduced = scene.reducedMotion, !classes.isEmpty {
            s += "@media (prefers-reduced-motion:reduce){"
            if case .hold(let t) = reduced, heldTime(t) == Rational(0) {
                // Paused where they start: the loop's first frame, whatever each delay.
                s += "\(root) *{animation-play-state:paused!important}"
            } else {
                for (i, list) in classes.enumerated() {
                    s += "\(root) \(root)-a\(i){animation:" + list.map { css($0, reduced) }.joined(separator: ",") + "}"
                }
            }
            s += "}"
        }
        return s
    }

    /// `--PREFIX-NAME:var(--throbber-NAME,VALUE)`: the page's value of the
    /// theme color, else the file's own.
    private func property(_ e: SceneTheme.Entry, _ scheme: SceneTheme.Scheme) -> String {
        let fallback = e.current ? "currentColor" : SVGWriter.cssColor(e.color(scheme))
        return "--\(SVGWriter.prefix)-\(e.name):var(--throbber-\(e.name),\(fallback))"
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    static func cssColor(_ c: Color) -> String {
        c.a == 255 ? VectorText.hex(c) : VectorText.hex(c) + cFormat("%02x", c.a)
    }

    /// The `animation` shorthand of `a`; under `reduced`, as reduced
    /// motion plays it: slowed down, or paused at the held frame.
    func css(_ a: CSSAnimation, _ reduced: ReducedMotion?) -> String {
        var period = a.period
        var shift = a.shift
        var paused = false
        switch reduced {
        case .speed(let f):
            period = period / f
            shift = shift / f
        case .hold(let t):
            shift = (shift + heldTime(t)).modulo(period)
            paused = true
        case nil: break
        }
        var s = "\(a.name) \(VectorText.secondsRoundedDown(period))s linear"
        // Rounded up: a frame time at a repetition's end must fall after it, on the new repetition.
        if shift != Rational(0) { s += " -\(VectorText.secondsRoundedUp(shift))s" }
        if let count = a.count {
            s += " \(VectorText.number(count.doubleValue, VectorText.timeDigits)) both"
        } else {
            s += " infinite"
        }
        if paused { s += " paused" }
        return s
    }

    /// The loop time of the frame shown `t` seconds into the loop.
    func heldTime(_ t: Rational) -> Rational {
        scene.time(ofFrame: SVGWriter.heldFrame(t, loop: scene.loop, frames: scene.frames))
    }

    /// The frame of a loop of `frames` equal frames shown `t` seconds in
    /// (the last one past the loop's end).
    static func heldFrame(_ t: Rational, loop: Rational, frames: Int) -> Int {
        let k = (t * Rational(Int64(frames)) / loop).floor
        return Int(max(0, min(Int64(frames - 1), k)))
    }
}
