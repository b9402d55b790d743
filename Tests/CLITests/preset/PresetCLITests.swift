import Foundation
import TestSupport
import Testing

/// `throbber presets` and `throbber preset NAME`: the list, options, and
/// `--print-config` being exactly what `-o` renders.
@Suite("preset: the built-in loaders through the CLI", .tags(.slow))
struct PresetCLITests {
    /// The presets the issue requires (more may exist).
    static let required = [
        "ease", "dots", "dots-flip", "spinner", "ring", "dual-ring", "pulse", "ripple", "bars", "wave",
        "bounce", "chase", "grid", "square-spin", "pacman", "orbit", "ellipsis", "heart",
    ]

    @Test("`throbber presets` lists one per line: the name, then a short description; at least the 18 required ones")
    func list() throws {
        let r = try Throbber.run(["presets"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderrText)")
        let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "", "the list ends with a newline")
        let entries = lines.dropLast()
        #expect(entries.count >= 18)
        var names: [String] = []
        for line in entries {
            let name = String(line.prefix { $0 != " " })
            let description = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
            #expect(name.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil, "bad name in '\(line)'")
            #expect(line.dropFirst(name.count).hasPrefix(" "), "no space after the name in '\(line)'")
            #expect(description.count >= 10 && description.count <= 100, "description of \(name): '\(description)'")
            names.append(name)
        }
        #expect(Set(names).count == names.count, "names repeat: \(names)")
        for name in Self.required { #expect(names.contains(name), "preset '\(name)' is missing") }
    }

    static let optionSets: [[String]] = [
        [],
        ["--size", "96", "--color", "#0A84FF", "--background", "white", "--speed", "2", "--fps", "25", "--scale", "2"],
        ["--size", "50", "--color", "red", "--speed", "1/2", "--fps", "12"],
        ["--background", "#202020", "--scale", "3"],
    ]

    /// --print-config with `options` → render → bytes, and preset -o → bytes.
    static func expectPrintConfigMatches(
        _ name: String, _ options: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try withTemporaryDirectory { dir in
            let printed = try Throbber.run(["preset", name, "--print-config"] + options)
            #expect(printed.status == 0, "\(name) \(options): \(printed.stderrText)", sourceLocation: sourceLocation)
            let config = try SceneCLI.write(printed.stdoutText, to: dir, as: "\(name).json")
            let viaRender = dir.appendingPathComponent("render.gif")
            let viaPreset = dir.appendingPathComponent("preset.gif")
            try SceneCLI.render(config, to: viaRender, sourceLocation: sourceLocation)
            let r = try Throbber.run(["preset", name, "-o", viaPreset.path, "-q"] + options)
            #expect(r.status == 0, "\(name) \(options): \(r.stderrText)", sourceLocation: sourceLocation)
            let a = try Data(contentsOf: viaRender)
            let b = try Data(contentsOf: viaPreset)
            #expect(
                !a.isEmpty && a == b, "preset \(name) \(options): render of --print-config differs from -o",
                sourceLocation: sourceLocation)
        }
    }

    @Test(
        "`render` of `preset NAME --print-config [options]` gives the same bytes as `preset NAME [options] -o`",
        arguments: required, optionSets)
    func printConfigIsWhatRenders(_ name: String, _ options: [String]) throws {
        try Self.expectPrintConfigMatches(name, options)
    }

    @Test("the same holds for every other listed preset")
    func printConfigIsWhatRendersForTheRest() throws {
        for name in try SceneCLI.presetNames() where !Self.required.contains(name) {
            for options in Self.optionSets { try Self.expectPrintConfigMatches(name, options) }
        }
    }

    @Test("--size sets the larger side of the decoded GIF in pixels (32, 64, 256), for every preset")
    func size() throws {
        try withTemporaryDirectory { dir in
            for name in try SceneCLI.presetNames() {
                for size in [32, 64, 256] {
                    let gif = dir.appendingPathComponent("\(name)-\(size).gif")
                    let r = try Throbber.run(["preset", name, "--size", String(size), "-o", gif.path, "-q"])
                    #expect(r.status == 0, "\(name) --size \(size): \(r.stderrText)")
                    guard r.status == 0 else { continue }
                    let d = try Pillow.decode(gif)
                    #expect(max(d.width, d.height) == size, "\(name) --size \(size): \(d.width)x\(d.height)")
                }
            }
        }
    }

    @Test("--speed 2 halves the total duration (to the centisecond), for every preset")
    func speed() throws {
        try withTemporaryDirectory { dir in
            for name in try SceneCLI.presetNames() {
                var totals: [Int] = []
                for speed in ["1", "2"] {
                    let gif = dir.appendingPathComponent("\(name)-\(speed).gif")
                    let r = try Throbber.run(["preset", name, "--speed", speed, "-o", gif.path, "-q"])
                    #expect(r.status == 0, "\(name) --speed \(speed): \(r.stderrText)")
                    totals.append(try Pillow.decode(gif).durations.reduce(0, +))
                }
                // A half-centisecond cycle rounds up: 0.375 s is 38 cs.
                #expect(
                    abs(2 * totals[1] - totals[0]) <= 10,
                    "\(name): \(totals[0]) ms at speed 1, \(totals[1]) ms at speed 2")
                #expect(totals[0] > 0)
            }
        }
    }

    struct BlendCheck: Decodable {
        var frames: Int
        var worst: Double
        var covered: Double
    }

    @Test(
        "--color and --background: every pixel of every frame is the color blended over the background, and the color shows"
    )
    func colorAndBackground() throws {
        try withTemporaryDirectory { dir in
            for name in try SceneCLI.presetNames() {
                let gif = dir.appendingPathComponent("\(name).gif")
                let r = try Throbber.run([
                    "preset", name, "--color", "#0A84FF", "--background", "#FFF0C0", "-o", gif.path, "-q",
                ])
                #expect(r.status == 0, "\(name): \(r.stderrText)")
                let check = try JSONDecoder().decode(
                    BlendCheck.self,
                    from: Pillow.script("scene_blend_check.py", [gif.path, "10,132,255", "255,240,192"]))
                #expect(check.frames > 1)
                #expect(
                    check.worst <= 12,
                    "\(name): a pixel is \(check.worst) levels away from any blend of #0A84FF over #FFF0C0")
                #expect(check.covered > 0.005, "\(name): the color covers only \(check.covered) of the pixels")
            }
        }
    }

    @Test(
        "preset ease --ring --icon with the real Coding.net assets: 120x120, the images are used, the ring turns and the icon fades as in the seed",
        .needsFixtures)
    func easeWithImages() throws {
        let ring = try Fixtures.url("coding-ios/loading_loop@2x.png")
        let icon = try Fixtures.url("coding-ios/loading_monkey@2x.png")
        try withTemporaryDirectory { dir in
            let printed = try Throbber.run([
                "preset", "ease", "--ring", ring.path, "--icon", icon.path, "--print-config",
            ])
            #expect(printed.status == 0, "\(printed.stderrText)")
            #expect(
                printed.stdoutText.contains("\"\(ring.path)\"") && printed.stdoutText.contains("\"\(icon.path)\""),
                "the config does not name the images: \(printed.stdoutText)")

            let gif = dir.appendingPathComponent("ease.gif")
            let r = try Throbber.run(["preset", "ease", "--ring", ring.path, "--icon", icon.path, "-o", gif.path, "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            let m = try JSONDecoder().decode(
                RenderSeedTests.EaseMeasure.self,
                from: Pillow.script("scene_ease_measure.py", [gif.path, ring.path, icon.path]))
            #expect(m.width == 120 && m.height == 120)
            #expect(m.frames.count == 30 && m.frames.allSatisfy { $0.duration == 50 })
            for (k, f) in m.frames.enumerated() {
                let expected = Double(24 * k % 180)
                var diff = ((f.angle ?? 999) - expected).truncatingRemainder(dividingBy: 180)
                if diff > 90 { diff -= 180 }
                if diff < -90 { diff += 180 }
                #expect(abs(diff) <= 1.5, "frame \(k): ring at \(f.angle ?? -1)°, expected \(expected)°")
                #expect(
                    abs(f.alpha - RenderSeedTests.easeAlpha(frame: k)) <= 0.03, "frame \(k): icon opacity \(f.alpha)")
            }
            // Frame 0 is the two images themselves (composited by Pillow), not the drawn default.
            let reference = dir.appendingPathComponent("reference.png")
            _ = try Pillow.script("scene_composite.py", [reference.path, "120", "120", ring.path, icon.path])
            // (The preset mattes faint edge pixels onto white, so a few nearly
            // transparent reference pixels differ: 29.28 dB measured, not 99.)
            let ownImages = try Pillow.match(gif, against: [reference])
            #expect(ownImages.frames[0].psnr[0] >= 28.8, "frame 0 vs ring+icon: \(ownImages.frames[0].psnr[0]) dB")
            let drawn = dir.appendingPathComponent("drawn.gif")
            #expect(try Throbber.run(["preset", "ease", "-o", drawn.path, "-q"]).status == 0)
            #expect(
                try Pillow.match(drawn, against: [reference]).frames[0].psnr[0] < 15,
                "the default ease looks like the real assets?")
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var says: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let refusals: [Refusal] = [
        Refusal(arguments: ["preset", "no-such-loader", "-o", "x.gif"], status: 64, says: "no-such-loader"),
        Refusal(arguments: ["preset", "dots"], status: 64, says: "-o"),
        Refusal(arguments: ["preset", "dots", "--ring", "ring.png", "--print-config"], status: 64, says: "ease"),
        Refusal(
            arguments: ["preset", "ease", "--ring", "/no/such/ring.png", "--print-config"], status: 66,
            says: "/no/such/ring.png"),
        Refusal(arguments: ["preset", "dots", "--color", "blurple", "--print-config"], status: 64, says: "blurple"),
        Refusal(arguments: ["preset", "dots", "--speed", "0", "--print-config"], status: 64, says: "--speed"),
        Refusal(arguments: ["preset", "dots", "--fps", "0", "--print-config"], status: 64, says: "--fps"),
        Refusal(arguments: ["preset", "dots", "--fps", "60", "-o", "x.gif"], status: 65, says: "50"),
        Refusal(arguments: ["presets", "extra"], status: 64, says: "no arguments"),
    ]

    @Test("bad preset invocations are refused with the right exit status and message", arguments: refusals)
    func refused(_ c: Refusal) throws {
        try withTemporaryDirectory { dir in
            let r = try Throbber.run(c.arguments, in: dir)
            #expect(r.status == c.status, "\(r.stderrText)")
            #expect(r.stderrText.hasPrefix("throbber: error: ") && r.stderrText.contains(c.says), "\(r.stderrText)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "a file was left behind")
        }
    }
}
