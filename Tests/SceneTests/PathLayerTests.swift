import Foundation
import TestSupport
import Testing
import ThrobberKit

@testable import ThrobberScene

/// `path` layers as a config gives them: what is filled and stroked, where
/// the path data sits, and every refusal with its JSON path. Drawn shapes
/// are measured against plane geometry on the renderer's pixels.
@Suite("path layers: reading, refusals and drawn geometry")
struct PathLayerTests {
    typealias K = SceneTestKit

    static func path(_ layer: String, width: Int = 100, height: Int = 100) throws -> (SceneConfig, ScenePath) {
        let config = try K.config(K.scene(width: width, height: height, layers: layer))
        guard case .path(let p) = try K.layers(config)[0].kind else { throw SceneTestError("not a path layer") }
        return (config, p)
    }

    static func message(_ layer: String) -> String {
        K.error { _ = try K.config(K.scene(layers: layer)) }?.message ?? "no error"
    }

    @Test("a path is filled unless only a stroke is given; its data is centered on the layer by its box")
    func paintAndOrigin() throws {
        let (_, filled) = try Self.path(#"{"path": {"d": "M10 20 H50 V60 H10 Z"}}"#)
        #expect(filled.filled && !filled.stroked)
        #expect(filled.origin == PathGeometry.Point(30, 40))
        #expect(filled.geometry.subpaths[0].start == PathGeometry.Point(-20, -20))
        let (_, stroked) = try Self.path(#"{"path": {"d": "M0 0 L10 0"}, "stroke": "red"}"#)
        #expect(!stroked.filled && stroked.stroked)
        let (_, both) = try Self.path(
            #"{"path": {"d": "M0 0 L10 0 L5 5 Z", "origin": [0, 0]}, "fill": "red", "stroke": "blue"}"#)
        #expect(both.filled && both.stroked && both.geometry.subpaths[0].start == PathGeometry.Point(0, 0))
        // The box of a curve is where the curve goes, not its control points:
        // a quarter-circle-like bulge from (0,0) to (10,0) peaking at y = -7.5.
        let (_, bulge) = try Self.path(#"{"path": {"d": "M0 0 C0 -10 10 -10 10 0"}}"#)
        #expect(abs(bulge.origin.x - 5) < 1e-9 && abs(bulge.origin.y + 3.75) < 1e-9)
    }

    @Test(
        "errors name the JSON path, and for path data the character",
        arguments: [
            (#"{"path": {"d": "M 10 10 L 20 20 C"}}"#, "layers[0].path.d: at 17: expected a number after C"),
            (#"{"path": {"d": "M0 0 L 5 x"}}"#, #"layers[0].path.d: at 9: expected a number after L, found "x""#),
            (#"{"path": {"d": "L 5 5"}}"#, "layers[0].path.d: at 0: path data must start with M or m"),
            (#"{"path": {"d": "M0 0 L1e308 0"}}"#, "layers[0].path.d: at 6: a number is out of range"),
            (#"{"path": {"d": "M0 0 LNaN 0"}}"#, "layers[0].path.d: at 6: expected a number after L"),
            (#"{"path": {"d": "M0 0 L1 1", "cap": "rund"}, "stroke": "red"}"#, #"did you mean "round"?"#),
            (
                #"{"path": {"d": "M0 0 L1 1", "dash": [2, 2], "trim": {"end": 0.5}}, "stroke": "red"}"#,
                "layers[0].path.trim: a path has a trim or a dash pattern, not both"
            ),
            (
                #"{"path": {"d": "M0 0 L1 1", "trim": {"end": 1.5}}, "stroke": "red"}"#,
                "layers[0].path.trim.end: 1.5 is out of range"
            ),
            (
                #"{"path": {"d": "M0 0 L1 1", "dash": [0, 0]}, "stroke": "red"}"#,
                "layers[0].path.dash: expected a dash length above 0"
            ),
            (
                #"{"path": {"d": "M0 0 L1 1", "miterLimit": 0.5}, "stroke": "red"}"#,
                "layers[0].path.miterLimit: 0.5 is out of range"
            ),
            (
                #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "d", "period": 1, "keys": [{"at": 0, "value": 0}]}]}"#,
                #"layers[0].animate[0].property: "d" can only be animated on a path layer"#
            ),
            (
                #"{"arc": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "offset", "period": 1, "keys": [{"at": 0, "value": 0}]}]}"#,
                #""offset" can only be animated on a path layer"#
            ),
            (
                #"{"path": {"d": "M0 0 L1 1"}, "stroke": "red", "animate": [{"kind": "keyframes", "property": "end", "period": 1, "keys": [{"at": 0, "value": 2}]}]}"#,
                "layers[0].animate[0].keys[0].value: 2 is out of range (0…1 of the length)"
            ),
            (
                #"{"path": {"d": "M0 0 L1 1"}, "animate": [{"kind": "keyframes", "property": "d", "period": 1, "keys": [{"at": 0, "value": "M0 0 L1 1"}, {"at": 1, "value": "M0 0 L1 1 L2 2"}]}]}"#,
                "layers[0].animate[0].keys[1].value: a morph's shapes need the same commands as the layer's \"d\" (1 subpath of 2 segments here, 1 subpath of 1 segment there)"
            ),
            (
                #"{"path": {"d": "M0 0 L1 1"}, "animate": [{"kind": "keyframes", "property": "d", "period": 1, "keys": [{"at": 0, "value": "M0 0 L1 1", "ease": "cubic-bezier(0.3, -0.5, 0.6, 1)"}, {"at": 1, "value": "M0 0 L2 2"}]}]}"#,
                "layers[0].animate[0].keys[0].ease: a morph's easing stays within its shapes"
            ),
            (
                #"{"path": {"d": "M0 0 L1 1"}, "animate": [{"kind": "step", "property": "d", "by": 1}]}"#,
                #"layers[0].animate[0].kind: "d" is animated by "keyframes" whose values are path data"#
            ),
        ])
    func refused(_ layer: String, _ expected: String) {
        let m = Self.message(layer)
        #expect(m.contains(expected), "\(m)")
    }

    @Test("path data of 700,000 commands (3.5 MB) is refused at once, naming the limit")
    func hugePathData() {
        let d = "M0 0" + String(repeating: " L1 1", count: 700_000)
        let clock = ContinuousClock()
        var m = ""
        let took = clock.measure { m = Self.message(#"{"path": {"d": "\#(d)"}}"#) }
        #expect(m.contains("layers[0].path.d: at ") && m.contains("too many segments (more than 20000)"), "\(m)")
        #expect(took < .seconds(5), "\(took)")
    }

    /// The columns of row `y` holding ink (alpha above half).
    static func inked(_ image: RGBAImage, row y: Int) -> [Int] {
        (0..<image.width).filter { x in
            let alpha: UInt8 = image.pixels[(y * image.width + x) * 4 + 3]
            return alpha > 127
        }
    }

    /// The rows of column `x` holding ink (alpha above half).
    static func inked(_ image: RGBAImage, column x: Int) -> [Int] {
        (0..<image.height).filter { y in
            let alpha: UInt8 = image.pixels[(y * image.width + x) * 4 + 3]
            return alpha > 127
        }
    }

    @Test("a trim draws its fraction of a line, wrapping round with its offset")
    func trimmedLine() throws {
        func ink(_ trim: String) throws -> [Int] {
            let config = try K.config(
                K.scene(
                    width: 100, height: 20,
                    layers:
                        #"{"path": {"d": "M10 10 H90", "origin": [0, 0], "width": 4, "trim": \#(trim)}, "stroke": "black", "center": [0, 0]}"#
                ))
            return Self.inked(try K.renderer(config).render(at: Rational(0)), row: 10)
        }
        // 80 points of line: a quarter to three quarters is x 30…70.
        #expect(try ink(#"{"start": 0.25, "end": 0.75}"#) == Array(30..<70))
        // Offset by a half: 0.75…1 and 0…0.25 (the dash wraps, 0.1 % short).
        let wrapped = try ink(#"{"start": 0.25, "end": 0.75, "offset": 0.5}"#)
        #expect(wrapped == Array(10..<30) + Array(70..<90), "\(wrapped)")
        // Start after end draws the same part; start = end draws nothing.
        #expect(try ink(#"{"start": 0.75, "end": 0.25}"#) == Array(30..<70))
        #expect(try ink(#"{"start": 0.5, "end": 0.5}"#).isEmpty)
    }

    @Test("a morph halfway between two squares draws the square halfway between them")
    func morphMidway() throws {
        let a = "M10 10 H30 V30 H10 Z"
        let b = "M50 10 H90 V50 H50 Z"
        let config = try K.config(
            K.scene(
                width: 100, height: 60, timing: #"{"fps": 10}"#,
                layers:
                    #"{"path": {"d": "\#(a)", "origin": [0, 0]}, "center": [0, 0], "fill": "black", "animate": [{"kind": "keyframes", "property": "d", "period": 1, "keys": [{"at": 0, "value": "\#(a)"}, {"at": 1, "value": "\#(b)"}]}]}"#
            ))
        let renderer = try K.renderer(config)
        // At 0.5 s: x 30…60, y 10…40.
        let half = try renderer.render(at: Rational(1, 2))
        #expect(Self.inked(half, row: 25) == Array(30..<60))
        #expect(Self.inked(half, column: 45) == Array(10..<40))
        #expect(Self.inked(try renderer.render(at: Rational(0)), row: 20) == Array(10..<30))
    }

    @Test("evenodd leaves the inner square of two a hole; nonzero fills it when both turn the same way")
    func fillRules() throws {
        func center(_ rule: String) throws -> UInt8 {
            let config = try K.config(
                K.scene(
                    layers:
                        #"{"path": {"d": "M10 10 H50 V50 H10 Z M20 20 H40 V40 H20 Z", "fillRule": "\#(rule)"}, "fill": "black"}"#
                ))
            let image = try K.renderer(config).render(at: Rational(0))
            return image.pixels[(30 * 60 + 30) * 4 + 3]
        }
        #expect(try center("evenodd") == 0)
        #expect(try center("nonzero") == 255)
    }
}
