import Foundation
import TestSupport
import Testing

/// `check` pins Lottie, dotLottie and SVG outputs as it pins frames: the
/// recorded hash is sha256sum's of the command run directly; a changed
/// config fails the run, and the report gives both hashes (there are no
/// frames to diff).
@Suite("throbber check with vector outputs")
struct CheckVectorTests {
    static let config = """
        {"version": 1, "canvas": {"width": 24, "height": 24}, "timing": {"fps": 12},
         "layers": [{"circle": {"radius": 6}, "fill": "#0a84ff", "center": [12, 12],
           "animate": [{"kind": "keyframes", "property": "scale", "period": 1,
                        "keys": [{"at": 0, "value": 1}, {"at": 0.5, "value": 1.5}]}]}]}
        """

    @Test("an .svg and a .json entry pass after --update and fail (exit 1, both hashes) after the config changes")
    func pinsVectorFiles() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.config, to: dir, as: "loader.json")
            try SceneCLI.write(
                """
                {"entries": [{"render": "loader.json", "output": "loader.svg"},
                             {"preset": "ring", "args": ["--size", "32"], "output": "ring-lottie.json"}]}
                """, to: dir, as: "manifest.json")
            let up = try Throbber.run(["check", "manifest.json", "--update"], in: dir)
            #expect(up.status == 0, "\(up.stdoutText)\(up.stderrText)")
            // The recorded hashes are those of the commands run directly.
            let direct = dir.appendingPathComponent("direct")
            try FileManager.default.createDirectory(at: direct, withIntermediateDirectories: true)
            let svg = direct.appendingPathComponent("loader.svg")
            let lottie = direct.appendingPathComponent("ring.json")
            try SceneCLI.render(config, to: svg)
            let ring = try Throbber.run(["preset", "ring", "--size", "32", "-o", lottie.path, "-q"])
            #expect(ring.status == 0, "\(ring.stderrText)")
            let hashes = try sha256sum([svg, lottie])
            #expect(up.stdoutText.contains("new     loader.svg  \(hashes[0])\n"), "\(up.stdoutText)")
            #expect(up.stdoutText.contains("new     ring-lottie.json  \(hashes[1])\n"), "\(up.stdoutText)")
            #expect(try Data(contentsOf: dir.appendingPathComponent("loader.svg")) == Data(contentsOf: svg))

            let ok = try Throbber.run(["check", "manifest.json"], in: dir)
            #expect(ok.status == 0, "\(ok.stdoutText)\(ok.stderrText)")
            #expect(
                ok.stdoutText.contains("ok      loader.svg\n") && ok.stdoutText.contains("ok      ring-lottie.json\n"))

            try Data(Self.config.replacing("#0a84ff", with: "#ff3b30").utf8).write(to: config)
            let changed = dir.appendingPathComponent("changed.svg")
            try SceneCLI.render(config, to: changed)
            let newHash = try sha256sum([changed])[0]
            #expect(newHash != hashes[0])
            let bad = try Throbber.run(["check", "manifest.json", "--diff-dir", "diffs"], in: dir)
            #expect(bad.status == 1, "\(bad.stdoutText)\(bad.stderrText)")
            #expect(
                bad.stdoutText.contains("FAILED  loader.svg: sha256 \(newHash), expected \(hashes[0])"),
                "\(bad.stdoutText)")
            #expect(bad.stdoutText.contains("SVG has no frames to compare"), "\(bad.stdoutText)")
            #expect(bad.stdoutText.contains("ok      ring-lottie.json\n"))
            // The expected and new files side by side, byte for byte.
            let diffs = dir.appendingPathComponent("diffs")
            #expect(try VectorKit.listing(diffs) == ["loader.svg-actual.svg", "loader.svg-expected.svg"])
            #expect(
                try Data(contentsOf: diffs.appendingPathComponent("loader.svg-actual.svg")) == Data(contentsOf: changed)
            )
            #expect(
                try Data(contentsOf: diffs.appendingPathComponent("loader.svg-expected.svg")) == Data(contentsOf: svg))
        }
    }

    @Test("a .lottie entry passes after --update with the command's hash; a changed config fails it, naming dotLottie")
    func pinsDotLottie() throws {
        try withTemporaryDirectory { dir in
            let config = try SceneCLI.write(Self.config, to: dir, as: "loader.json")
            try SceneCLI.write(
                """
                {"entries": [{"render": "loader.json", "output": "out/loader.lottie"},
                             {"preset": "ring", "args": ["--size", "32"], "output": "ring.lottie"}]}
                """, to: dir, as: "manifest.json")
            let up = try Throbber.run(["check", "manifest.json", "--update"], in: dir)
            #expect(up.status == 0, "\(up.stdoutText)\(up.stderrText)")
            let direct = dir.appendingPathComponent("direct.lottie")
            try SceneCLI.render(config, to: direct)
            let ring = dir.appendingPathComponent("ring-direct.lottie")
            #expect(try Throbber.run(["preset", "ring", "--size", "32", "-o", ring.path, "-q"]).status == 0)
            let hashes = try sha256sum([direct, ring])
            #expect(up.stdoutText.contains("new     out/loader.lottie  \(hashes[0])\n"), "\(up.stdoutText)")
            #expect(up.stdoutText.contains("new     ring.lottie  \(hashes[1])\n"), "\(up.stdoutText)")

            let ok = try Throbber.run(["check", "manifest.json"], in: dir)
            #expect(ok.status == 0, "\(ok.stdoutText)\(ok.stderrText)")
            #expect(
                ok.stdoutText.contains("ok      out/loader.lottie\n") && ok.stdoutText.contains("ok      ring.lottie\n")
            )

            try Data(Self.config.replacing("#0a84ff", with: "#ff3b30").utf8).write(to: config)
            let bad = try Throbber.run(["check", "manifest.json", "--diff-dir", "diffs"], in: dir)
            #expect(bad.status == 1, "\(bad.stdoutText)\(bad.stderrText)")
            #expect(bad.stdoutText.contains("FAILED  out/loader.lottie: sha256 "), "\(bad.stdoutText)")
            #expect(bad.stdoutText.contains("dotLottie has no frames to compare"), "\(bad.stdoutText)")
            #expect(bad.stdoutText.contains("ok      ring.lottie\n"))
            #expect(
                try VectorKit.listing(dir.appendingPathComponent("diffs")) == [
                    "out_loader.lottie-actual.lottie", "out_loader.lottie-expected.lottie",
                ])
        }
    }
}
