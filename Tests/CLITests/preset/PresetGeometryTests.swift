import Foundation
import TestSupport
import Testing

/// What each preset draws, frame by frame: Tests/tools/preset_geometry.py
/// decodes the lossless APNG with anim_reference.py's own spec decoder and
/// measures radii, areas, chords, centers, axes and clock angles, comparing
/// each with the value it computes from the preset's definition (design
/// units, keyframes, easings, delays) with its own cubic-Bézier solver.
/// This is the independent expectation conformance.py lacks: there the
/// pixel reference for presets is our own APNG.
@Suite("Preset geometry: measured on the decoded frames, expected from the preset definitions", .tags(.slow))
struct PresetGeometryTests {
    struct Report: Decodable {
        var preset: String
        var width: Int, height: Int
        var frames: Int, slots: Int, checks: Int
        var problems: [String]
        var worst: [String: Double]
    }

    static func measure(_ geometry: String, _ apng: URL) throws -> Report {
        try JSONDecoder().decode(Report.self, from: Pillow.script("preset_geometry.py", [geometry, apng.path]))
    }

    /// Size in pixels and frames per cycle, from each preset's definition:
    /// the seeds at scale 2 (as the seed articles draw them), the shapes 64 px on their larger
    /// side; cycle = lcm of the periods, frames = cycle · fps.
    static let sizes: [String: (width: Int, height: Int, slots: Int)] = [
        "ease": (120, 120, 30), "dots": (240, 80, 30), "dots-flip": (240, 80, 120),
        "spinner": (64, 64, 24), "ring": (64, 64, 48), "dual-ring": (64, 64, 20), "chase": (64, 64, 24),
        "orbit": (64, 64, 25), "pulse": (64, 64, 25), "ripple": (64, 64, 25), "heart": (64, 64, 30),
        "square-spin": (64, 64, 30), "grid": (64, 64, 30), "bars": (64, 64, 30), "wave": (64, 32, 30),
        "bounce": (64, 64, 24), "ellipsis": (64, 32, 30), "pacman": (64, 64, 25),
    ]

    /// Presets drawn with paths and text, measured against independent
    /// renderers instead: their path data and glyph outlines against
    /// Chromium drawing the same SVG paths by hand (PathReferenceTests) and
    /// pango-view with the same font file (TextReferenceTests), and every
    /// frame of each against Chromium, rlottie and ThorVG drawing its
    /// exported SVG and Lottie (VectorRendererTests, VectorPlayerTests).
    static let measuredByRenderers: Set<String> = ["text-wave", "label", "checkmark", "spinner-check"]

    /// The presets measured here.
    static let measured = ConformancePresetTests.presets.filter { !measuredByRenderers.contains($0) }

    @Test("every listed preset has a geometry check, or is measured against independent renderers")
    func everyPresetMeasured() {
        #expect(Set(Self.sizes.keys) == Set(Self.measured))
        #expect(Set(Self.measured).union(Self.measuredByRenderers) == Set(ConformancePresetTests.presets))
    }

    static func expectGeometry(
        _ r: Report, _ geometry: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let size = Self.sizes[geometry]!
        #expect(
            r.width == size.width && r.height == size.height, "\(what): \(r.width)x\(r.height)",
            sourceLocation: sourceLocation)
        #expect(
            r.slots == size.slots, "\(what): \(r.slots) frame slots, expected \(size.slots)",
            sourceLocation: sourceLocation)
        #expect(r.checks >= 2 * size.slots, "\(what): only \(r.checks) measurements", sourceLocation: sourceLocation)
        #expect(
            r.problems.isEmpty,
            "\(what): \(r.problems.count) of \(r.checks) measurements off:\n\(r.problems.prefix(20).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    @Test(
        "each preset, default options: sizes, positions, angles and opacities frame by frame",
        arguments: measured)
    func preset(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let apng = dir.appendingPathComponent("\(name).png")
            try Conformance.make(["preset", name], outputs: [apng])
            Self.expectGeometry(try Self.measure(name, apng), name, "preset \(name)")
        }
    }

    @Test(
        "the layer examples that draw the seeds' dots measure as the dots presets do",
        arguments: [("dots.json", "dots"), ("dots-flip.json", "dots-flip")])
    func example(_ file: String, _ geometry: String) throws {
        try withTemporaryDirectory { dir in
            let apng = dir.appendingPathComponent("example.png")
            try Conformance.make(["render", SceneCLI.examples.appendingPathComponent(file).path], outputs: [apng])
            Self.expectGeometry(try Self.measure(geometry, apng), geometry, "examples/\(file)")
        }
    }

    @Test(
        "the measurements can fail: a preset's config with one number or easing changed is caught",
        arguments: [
            ("ring", "\"cubic-bezier(0.4, 0, 0.2, 1)\"", "\"linear\""),  // Material's curve → linear
            ("spinner", "\"delay\": \"1/12\"", "\"delay\": \"-1/12\""),  // the lit spoke turns back
            ("dots", "\"ease-out\"", "\"ease-in\""),
            ("pacman", "-43.52", "-40"),  // the dots slide 62.5 units, not 68
            ("heart", "1.18", "1.1"),
        ])  // a weaker first beat
    func noticesChanges(_ name: String, _ original: String, _ changed: String) throws {
        try withTemporaryDirectory { dir in
            let printed = try Throbber.run(["preset", name, "--print-config"])
            #expect(printed.status == 0, "\(printed.stderrText)")
            let text = printed.stdoutText
            #expect(text.contains(original), "the printed \(name) config no longer holds \(original)")
            let config = try SceneCLI.write(
                text.replacingOccurrences(of: original, with: changed), to: dir, as: "\(name).json")
            let apng = dir.appendingPathComponent("\(name).png")
            try Conformance.make(["render", config.path], outputs: [apng])
            let r = try Self.measure(name, apng)
            #expect(
                r.problems.count >= 3,
                "\(name) with \(original) → \(changed): only \(r.problems.count) measurements off")
        }
    }
}
