import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// `theme`, `title` and `motion` in a config: what they read, what they
/// refuse (file, JSON path, what to write instead), and how an SVG names
/// what it defines so that loaders can share a page.
@Suite("scene config: theme colors, title, reduced motion; SVG names")
struct SceneThemeTests {
    static func config(_ extra: String, layers: String = #"[{"circle": {"radius": 3}, "fill": "accent"}]"#) throws
        -> SceneConfig
    {
        try SceneTestKit.config(
            #"{"version": 1, "canvas": {"width": 10, "height": 10}, "layers": \#(layers)\#(extra)}"#)
    }

    static func message(_ extra: String, layers: String = #"[{"circle": {"radius": 3}, "fill": "accent"}]"#) -> String {
        SceneTestKit.error { _ = try config(extra, layers: layers) }?.message ?? "no error"
    }

    @Test("layers and the canvas use theme names: the light value is drawn, --theme dark draws the dark one")
    func namesAndSchemes() throws {
        let c = try SceneTestKit.config(
            ##"""
            {"version": 1, "canvas": {"width": 10, "height": 10, "background": "page"},
             "theme": {"accent": {"light": "#0A84FF", "dark": "#64D2FF"}, "track": "#0A84FF33",
                       "page": {"light": "white", "dark": "#1e1e1e"}},
             "layers": [{"circle": {"radius": 3}, "fill": "accent"}, {"arc": {"radius": 4}, "stroke": "track"},
                        {"group": [{"rect": {"width": 2, "height": 2}, "fill": "accent"}]}]}
            """##)
        let layers = try SceneTestKit.layers(c)
        #expect(layers[0].fill == Color(r: 0x0A, g: 0x84, b: 0xFF) && layers[0].fillName == "accent")
        #expect(layers[1].stroke == Color(r: 0x0A, g: 0x84, b: 0xFF, a: 0x33) && layers[1].strokeName == "track")
        #expect(c.canvas.background == Color(r: 255, g: 255, b: 255) && c.canvas.backgroundName == "page")
        let dark = c.themed(.dark)
        let darkLayers = try SceneTestKit.layers(dark)
        #expect(darkLayers[0].fill == Color(r: 0x64, g: 0xD2, b: 0xFF))
        // No dark value: the light one stays.
        #expect(darkLayers[1].stroke == Color(r: 0x0A, g: 0x84, b: 0xFF, a: 0x33))
        guard case .group(let children) = darkLayers[2].kind else {
            Issue.record("not a group")
            return
        }
        #expect(children[0].fill == Color(r: 0x64, g: 0xD2, b: 0xFF))
        #expect(dark.canvas.background == Color(r: 0x1e, g: 0x1e, b: 0x1e))
        #expect(!dark.theme.hasDark, "a dark-only config keeps no second scheme")
        #expect(try SceneTestKit.layers(c.themed(.light))[0].fill == layers[0].fill)
    }

    @Test("a name that is neither a color nor in the theme is refused with the theme's names and the nearest")
    func unknownName() throws {
        let m = Self.message(
            #", "theme": {"accent": "red"}"#, layers: #"[{"circle": {"radius": 3}, "fill": "acent"}]"#)
        #expect(
            m.contains("layers[0].fill") && m.contains("\"accent\"") && m.contains("did you mean \"accent\""), "\(m)")
        // Without a theme, the message is the color one.
        let plain = Self.message("", layers: #"[{"circle": {"radius": 3}, "fill": "accent"}]"#)
        #expect(plain.contains("layers[0].fill") && plain.contains("expected a color"), "\(plain)")
    }

    @Test(
        "theme names: lowercase, digits and -, not a color's name, at most one currentColor, no unknown keys",
        arguments: [
            (#"{"Accent": "red"}"#, "theme.Accent", "lowercase letters"),
            (#"{"red": "blue"}"#, "theme.red", "is a color already"),
            (
                #"{"a": {"light": "red", "current": true}, "b": {"light": "red", "current": true}}"#, "theme.b.current",
                "only one"
            ),
            (#"{"a": {"light": "red", "darkk": "blue"}}"#, "theme.a", "darkk"),
            (#"{"a": {"dark": "blue"}}"#, "theme.a", "light"),
            (#"{"a": 3}"#, "theme.a", "expected a color"),
        ])
    func badThemes(_ theme: String, _ path: String, _ says: String) throws {
        let m = Self.message(#", "theme": \#(theme)"#, layers: #"[{"circle": {"radius": 3}}]"#)
        #expect(m.contains(path) && m.contains(says), "\(m)")
    }

    @Test("title: default Loading, one line of at most 200 characters")
    func title() throws {
        #expect(try Self.config("", layers: #"[{"circle": {"radius": 3}}]"#).accessibleName == "Loading")
        #expect(
            try Self.config(#", "title": "Uploading <3> & more""#, layers: #"[{"circle": {"radius": 3}}]"#).title
                == "Uploading <3> & more")
        for bad in [#""""#, #""a\nb""#, "\"\(String(repeating: "x", count: 201))\""] {
            let m = Self.message(#", "title": \#(bad)"#, layers: #"[{"circle": {"radius": 3}}]"#)
            #expect(m.contains("title") && m.contains("1 to 200 characters"), "\(m)")
        }
    }

    @Test("motion.reduced: a speed factor below 1, or seconds to hold; anything else says what to write")
    func reducedMotion() throws {
        let circle = #"[{"circle": {"radius": 3}}]"#
        #expect(
            try Self.config(#", "motion": {"reduced": {"speed": 0.25}}"#, layers: circle).reducedMotion
                == .speed(Rational(1, 4)))
        #expect(
            try Self.config(#", "motion": {"reduced": {"hold": "1/3"}}"#, layers: circle).reducedMotion
                == .hold(Rational(1, 3)))
        #expect(try Self.config(#", "motion": {}"#, layers: circle).reducedMotion == nil)
        for (bad, says) in [
            (#"{"reduced": {"speed": 1}}"#, "below 1"), (#"{"reduced": {"speed": 0.1234}}"#, "3 decimals"),
            (#"{"reduced": {"speed": 0.5, "hold": 0}}"#, "{\"speed\": FACTOR}"),
            (#"{"reduced": {"hold": -1}}"#, "motion.reduced.hold"), (#"{"reduce": {}}"#, "reduce"),
        ] {
            let m = Self.message(#", "motion": \#(bad)"#, layers: circle)
            #expect(m.contains("motion") && m.contains(says), "\(bad): \(m)")
        }
    }

    /// Every name an SVG defines: keyframes, classes, ids, custom properties.
    static func definedNames(_ svg: String) -> [String] {
        let patterns = [#"@keyframes ([^{]+)\{"#, #"class="([^"]+)""#, #"id="([^"]+)""#, #"--(t[0-9a-f]{8}[^:]*):"#]
        return patterns.flatMap { p in
            let re = try! NSRegularExpression(pattern: p)
            return re.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map {
                String(svg[Range($0.range(at: 1), in: svg)!])
            }
        }
    }

    @Test("an SVG's names all start with a prefix made from its content: same loader, same names; other loader, other")
    func svgPrefixes() throws {
        func svg(_ name: String, _ color: Color? = nil) throws -> String {
            var o = PresetOptions()
            o.color = color
            let config = try PresetCatalog.named(name)!.config(o)
            return String(decoding: try VectorFormat.svg.data(for: config), as: UTF8.self)
        }
        let a = try svg("spinner")
        let b = try svg("ring")
        let c = try svg("spinner", Color(r: 255, g: 0, b: 0))
        #expect(a == (try svg("spinner")), "the same loader twice: the same bytes")
        let prefixes = [a, b, c].map { text -> String in
            let r = text.range(of: #"class="t[0-9a-f]{8}""#, options: .regularExpression)!
            return String(text[r].dropFirst(7).dropLast())
        }
        #expect(Set(prefixes).count == 3, "\(prefixes)")
        for (text, prefix) in zip([a, b, c], prefixes) {
            let names = Self.definedNames(text)
            #expect(names.count > 3)
            #expect(names.allSatisfy { $0.hasPrefix(prefix) }, "\(names.filter { !$0.hasPrefix(prefix) })")
            #expect(!text.contains("\u{1}"))
            #expect(text.contains(#"role="img"><title>Loading</title>"#))
        }
    }
}
