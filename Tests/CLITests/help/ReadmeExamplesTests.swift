import Foundation
import TestSupport
import Testing

/// Every command in README.md's `sh` blocks that starts with `throbber`, or
/// with `ffmpeg` and pipes into `throbber`, run in order in one folder
/// that holds the inputs they name, with the built binary first on PATH.
/// A new example is picked up as it is written; one whose input is not made
/// here fails, naming the line.
@Suite("README examples", .tags(.slow))
struct ReadmeExamplesTests {
    /// The commands, in README order: a line of a ```sh block whose first
    /// word is `throbber`, or `ffmpeg` with a `| throbber` stage.
    static func commands(_ readme: String) -> [String] {
        var commands: [String] = []
        var inBlock = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock = !inBlock && line == "```sh"
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("throbber ") || (line.hasPrefix("ffmpeg ") && line.contains("| throbber ")) {
                commands.append(String(line))
            }
        }
        return commands
    }

    /// The clip the examples' `clip.mp4` is: 2 s at 30 fps.
    static let clipSeconds = 2.0

    /// The inputs the examples name, made in `dir`: folders of frames,
    /// single images, a clip, Lottie files, the @2x images of `examples/`,
    /// and the manifest of the README's `json` block with what it names.
    static func makeInputs(in dir: URL, readme: String) throws {
        for (name, size, count) in [
            ("frames", "96x64", 8), ("clip", "160x120", 8), ("capture", "1280x720", 4), ("render", "96x96", 4),
            ("sprite", "16x16", 4), ("icons@2x", "64x64", 4), ("dropdown_anim", "64x64", 6),
        ] {
            _ = try ffmpegSourceFrames("testsrc2=size=\(size):rate=25", count: count, in: dir, name: name)
        }
        for (i, name) in ["a.png", "b.png", "c.png"].enumerated() {
            let made = try ffmpegSourceFrames("testsrc2=size=32x32:rate=25", count: i + 1, in: dir, name: "tmp\(i)")
            try FileManager.default.moveItem(at: made[i], to: dir.appendingPathComponent(name))
        }
        let ffmpeg = try Command.run(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"),
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=\(clipSeconds)",
                "-pix_fmt", "yuv420p", dir.appendingPathComponent("clip.mp4").path,
            ])
        guard ffmpeg.status == 0 else { throw HarnessError("ffmpeg: \(ffmpeg.stderrText)") }
        let lottie = try Fixtures.url("lottie-android/soda_loader.json")
        try FileManager.default.copyItem(at: lottie, to: dir.appendingPathComponent("loader.json"))
        let gzip = try Command.run(
            Pillow.python,
            [
                "-c", "import gzip, sys; open(sys.argv[2], 'wb').write(gzip.compress(open(sys.argv[1], 'rb').read()))",
                lottie.path, dir.appendingPathComponent("sticker.tgs").path,
            ])
        guard gzip.status == 0 else { throw HarnessError("gzip: \(gzip.stderrText)") }
        _ = try Pillow.script(
            "dotlottie_make.py",
            [
                "pack", dir.appendingPathComponent("loader.lottie").path, "deflate",
                #"manifest.json=text:{"version": "1", "animations": [{"id": "a"}]}"#,
                "animations/a.json=\(lottie.path)",
            ])
        let examples = Paths.repository.appendingPathComponent("examples")
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("loading_loop@2x.png"), to: dir.appendingPathComponent("loop@2x.png"))
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("loading_icon@2x.png"), to: dir.appendingPathComponent("icon@2x.png"))
        // The manifest: the README's json block, and the config it renders.
        let json = try #require(readme.firstMatch(of: /```json\n([\s\S]*?)```/).map { String($0.1) })
        try Data(json.utf8).write(to: dir.appendingPathComponent("loaders.json"))
        let loaders = dir.appendingPathComponent("loaders")
        try FileManager.default.createDirectory(at: loaders, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("dots.json"), to: loaders.appendingPathComponent("dots.json"))
    }

    @Test(
        "every throbber and ffmpeg | throbber command of README.md runs (exit 0); the pipe keeps the clip's duration",
        .needsFixtures)
    func readmeRuns() throws {
        let readme = try String(
            contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.commands(readme)
        #expect(commands.count >= 20, "\(commands)")
        #expect(commands.contains { $0.hasPrefix("ffmpeg ") }, "no pipe example found")
        try withTemporaryDirectory { dir in
            try Self.makeInputs(in: dir, readme: readme)
            let bin = try Throbber.binary.get().deletingLastPathComponent().path
            let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            for command in commands {
                let r = try Command.run(
                    URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", command], environment: ["PATH": path],
                    workingDirectory: dir)
                #expect(r.status == 0, "\(command)\nexited \(r.status): \(r.stderrText)")
                guard command.hasPrefix("ffmpeg "), r.status == 0 else { continue }
                // A pipe of PNG frames: the GIF lasts as long as the clip.
                let output = try #require(command.firstMatch(of: #/ -o (\S+)/#).map { String($0.1) })
                let gif = try Pillow.decode(dir.appendingPathComponent(output))
                let seconds = Double(gif.durations.reduce(0, +)) / 1000
                #expect(abs(seconds - Self.clipSeconds) < 0.02, "\(command): \(seconds) s, the clip is 2 s")
            }
        }
    }

    /// The EXAMPLES lines of `help` (a command's `--help` page).
    static func helpExamples(_ help: String) -> [String] {
        let lines = help.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "EXAMPLES:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
    }

    @Test(
        "every EXAMPLES line of every command's --help runs (exit 0), in the README's inputs; pipes keep the clip's duration",
        .needsFixtures)
    func helpExamplesRun() throws {
        let readme = try String(
            contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        try withTemporaryDirectory { dir in
            try Self.makeInputs(in: dir, readme: readme)
            // What the help pages name beyond the README's inputs.
            let examples = Paths.repository.appendingPathComponent("examples")
            try FileManager.default.copyItem(at: examples, to: dir.appendingPathComponent("examples"))
            try FileManager.default.copyItem(
                at: examples.appendingPathComponent("loading_loop@2x.png"),
                to: dir.appendingPathComponent("loading_loop@2x.png"))
            try FileManager.default.copyItem(
                at: examples.appendingPathComponent("loading_icon@2x.png"),
                to: dir.appendingPathComponent("loading_monkey@2x.png"))
            try FileManager.default.copyItem(
                at: dir.appendingPathComponent("loader.json"), to: dir.appendingPathComponent("spinner.json"))
            // `info ring.svg` reads an SVG that Throbber wrote.
            let ring = try Throbber.run(["preset", "ring", "-o", dir.appendingPathComponent("ring.svg").path, "-q"])
            #expect(ring.status == 0, "\(ring.stderrText)")
            // `completions` examples install into the home folder.
            let home = dir.appendingPathComponent("home")
            for folder in [".local/share/bash-completion/completions", ".config/fish/completions"] {
                try FileManager.default.createDirectory(
                    at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            let bin = try Throbber.binary.get().deletingLastPathComponent().path
            let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            var ran = 0
            for command in ExpectedCLI.subcommands {
                let help = try Throbber.run([command, "--help"])
                #expect(help.status == 0, "\(command) --help: \(help.stderrText)")
                for line in Self.helpExamples(help.stdoutText) {
                    // zsh's `source <(throbber completions zsh)` needs zsh: ZshCompletionTests loads it.
                    if line.hasPrefix("source ") { continue }
                    let r = try Command.run(
                        URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", line],
                        environment: ["PATH": path, "HOME": home.path], workingDirectory: dir)
                    #expect(r.status == 0, "\(command) --help: \(line)\nexited \(r.status): \(r.stderrText)")
                    ran += 1
                    guard line.hasPrefix("ffmpeg "), line.contains(".gif"), r.status == 0 else { continue }
                    let output = try #require(line.firstMatch(of: #/ -o (\S+)/#).map { String($0.1) })
                    let gif = try Pillow.decode(dir.appendingPathComponent(output))
                    let seconds = Double(gif.durations.reduce(0, +)) / 1000
                    #expect(abs(seconds - Self.clipSeconds) < 0.02, "\(line): \(seconds) s, the clip is 2 s")
                }
            }
            #expect(ran >= 15, "only \(ran) help examples found")
        }
    }

    @Test("the extraction finds throbber lines and ffmpeg pipes, and nothing outside sh blocks")
    func extraction() {
        let text = """
            throbber outside
            ```sh
            make demo
            throbber encode a/ -o a.gif   # comment
            ffmpeg -i x.mp4 -f image2pipe - | throbber encode - -o x.gif
            ffmpeg -i x.mp4 x.png
            ```
            ```json
            throbber in json
            ```
            """
        #expect(
            Self.commands(text) == [
                "throbber encode a/ -o a.gif   # comment",
                "ffmpeg -i x.mp4 -f image2pipe - | throbber encode - -o x.gif",
            ])
    }
}
