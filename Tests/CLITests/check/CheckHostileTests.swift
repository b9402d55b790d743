import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `check` with hostile manifests and options (docs/reliability.md, "check
/// with a manifest from elsewhere"): FIFOs, standard input, dangling links,
/// paths in "args", reports that would overwrite the manifest, interrupted
/// updates, shared outputs and the scratch folder. Each test runs the real
/// binary with TMPDIR set to a folder of its own and lists it afterwards.
@Suite("check: hostile manifests", .tags(.slow))
struct CheckHostileTests {
    /// Every path under `dir` with its type, size, modification time and
    /// inode, read with lstat: nothing is opened (a FIFO would block), and a
    /// file added, removed or replaced, even for a moment, changes a line.
    static func tree(_ dir: URL) throws -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir.path) else {
            throw HarnessError("cannot list \(dir.path)")
        }
        var lines: [String] = []
        for rel in [""] + e.compactMap({ $0 as? String }) {
            var st = stat()
            guard lstat(dir.appendingPathComponent(rel).path, &st) == 0 else { throw HarnessError("lstat \(rel)") }
            lines.append(
                "\(rel) \(st.st_mode) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) \(st.st_ino)")
        }
        return lines.sorted()
    }

    /// A folder for a test:
    ///
    ///     dir/pins/m.json           the manifest
    ///     dir/pins/frames/{a,b}.png
    ///     dir/pins/configs/dots.json
    ///     dir/tmp/                  TMPDIR
    struct Setup {
        let dir: URL
        var pins: URL { dir.appendingPathComponent("pins") }
        var manifest: URL { pins.appendingPathComponent("m.json") }
        var tmp: URL { dir.appendingPathComponent("tmp") }

        init(_ dir: URL, manifest text: String) throws {
            self.dir = dir
            try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png"], width: 8, height: 8),
                in: dir.appendingPathComponent("pins/frames"))
            try CheckKit.copyExamples(["dots.json"], to: dir.appendingPathComponent("pins/configs"))
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
            try write(text)
        }

        func write(_ text: String) throws { try Data(text.utf8).write(to: manifest) }

        var manifestText: String { (try? String(contentsOf: manifest, encoding: .utf8)) ?? "" }

        /// `throbber check pins/m.json ARGS` in `dir`, TMPDIR `tmp`, given
        /// a minute (a hang fails the test).
        func check(_ extra: [String] = []) throws -> CommandResult {
            try Command.run(
                try Throbber.binary.get(), ["check", "pins/m.json"] + extra, environment: ["TMPDIR": tmp.path],
                workingDirectory: dir, timeout: 60)
        }

        /// The same in bash, with standard input a FIFO that is open for
        /// writing too (by throbber itself), so reading it waits forever:
        /// no data ever comes, and no end.
        func checkWithOpenStandardInput(_ extra: [String]) throws -> CommandResult {
            let quoted = extra.map { "'\($0)'" }.joined(separator: " ")
            return try Hostile.shell(
                "rm -f stdin.fifo && mkfifo stdin.fifo && exec <>stdin.fifo && TMPDIR=\"$PWD/tmp\" exec \"$THROBBER\" check pins/m.json \(quoted)",
                in: dir, timeout: 30)
        }
    }

    @Test(
        "a FIFO at an entry's output: check says it cannot compare and ends; --update refuses it (exit 73) and writes nothing into it"
    )
    func fifoExpectedFile() throws {
        try withTemporaryDirectory { dir in
            // A recorded hash that cannot match: a mismatch, so check compares pixels.
            let s = try Setup(
                dir,
                manifest:
                    #"{"entries": [{"preset": "dots", "output": "x.gif", "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}]}"#
            )
            let fifo = s.pins.appendingPathComponent("x.gif")
            try Hostile.mkfifo(fifo)
            let before = try Self.tree(s.pins)

            let started = Date()
            let r = try s.check()
            #expect(Date().timeIntervalSince(started) < 30)
            #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
            #expect(
                r.stdoutText.contains("cannot compare pixels: pins/x.gif: is a pipe or FIFO, not a regular file"),
                "\(r.stdoutText)")
            #expect(CheckKit.summary(r) == "0 passed, 1 failed")

            let u = try s.check(["--update"])
            expectFailure(
                u, status: 73,
                names: ["pins/m.json", "entries[0].output", "x.gif", "a FIFO", "a regular file or absent"])
            #expect(Hostile.type(fifo.path) == S_IFIFO)
            #expect(try Self.tree(s.pins) == before, "written")
            #expect(try listing(s.tmp) == [], "scratch folder left")
        }
    }

    @Test(
        "a FIFO as an entry's config, input or --ring is refused before it is opened (exit 66, naming the JSON path)",
        arguments: [
            ("render", #"{"render": "f.json", "output": "x.gif"}"#),
            ("encode[1]", #"{"encode": ["frames/a.png", "f.png"], "output": "x.gif"}"#),
            ("args[1]", #"{"preset": "ease", "args": ["--ring", "f.png"], "output": "x.gif"}"#),
            ("args[0]", #"{"encode": ["frames/a.png"], "args": ["link.png"], "output": "x.gif"}"#),
        ])
    func fifoInputs(key: String, entry: String) throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [\#(entry)]}"#)
            try Hostile.mkfifo(s.pins.appendingPathComponent("f.json"))
            try Hostile.mkfifo(s.pins.appendingPathComponent("f.png"))
            try FileManager.default.createSymbolicLink(
                atPath: s.pins.appendingPathComponent("link.png").path, withDestinationPath: "f.png")
            let before = try Self.tree(s.pins)
            for extra in [[], ["--update"], ["--allow-outside"]] {
                let r = try s.check(extra)
                expectFailure(r, status: 66, names: ["pins/m.json", "entries[0].\(key)", "a FIFO"])
            }
            #expect(try Self.tree(s.pins) == before)
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "standard input named by an entry (-, /dev/stdin, /dev/fd/0, /proc/self/fd/0, a link to one; in encode, render or args) is refused at once, exit 65, even with --allow-outside",
        arguments: [
            ("encode[0]", #"{"encode": ["-"], "output": "x.gif"}"#),
            ("encode[1]", #"{"encode": ["frames", "/dev/stdin"], "output": "x.gif"}"#),
            ("encode[0]", #"{"encode": ["/dev/fd/0"], "output": "x.gif"}"#),
            ("encode[0]", #"{"encode": ["/proc/self/fd/0"], "output": "x.gif"}"#),
            ("encode[0]", #"{"encode": ["in"], "output": "x.gif"}"#),
            ("render", #"{"render": "/dev/stdin", "output": "x.gif"}"#),
            ("args[0]", #"{"encode": ["frames/a.png"], "args": ["-"], "output": "x.gif"}"#),
            ("args[1]", #"{"preset": "dots", "args": ["--", "/dev/stdin"], "output": "x.gif"}"#),
            ("args[1]", #"{"preset": "ease", "args": ["--ring", "-"], "output": "x.gif"}"#),
        ])
    func standardInput(key: String, entry: String) throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [{"preset": "dots", "output": "a.gif"}, \#(entry)]}"#)
            // A link inside the folder to standard input.
            try FileManager.default.createSymbolicLink(
                atPath: s.pins.appendingPathComponent("in").path, withDestinationPath: "/dev/stdin")
            let before = try Self.tree(s.pins)
            for extra in [[], ["--update"], ["--allow-outside", "--update"]] {
                let started = Date()
                let r = try s.checkWithOpenStandardInput(extra)
                #expect(Date().timeIntervalSince(started) < 20)
                expectFailure(r, status: 65, names: ["pins/m.json", "entries[1].\(key)", "standard input"])
            }
            #expect(try Self.tree(s.pins) == before, "written")
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "--update through a dangling link, a chain of links or a link to a missing folder that leads out is refused (exit 65); with --allow-outside it writes where the link leads",
        arguments: [
            ("x.gif", [("x.gif", "../escaped.gif")]),
            ("x.gif", [("x.gif", "ABSOLUTE/escaped.gif")]),
            ("x.gif", [("x.gif", "y.gif"), ("y.gif", "../escaped.gif")]),
            ("sub/x.gif", [("sub", "../out")]),
        ])
    func danglingLinks(output: String, links: [(String, String)]) throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [{"preset": "dots", "output": "\#(output)"}]}"#)
            for (name, target) in links {
                try FileManager.default.createSymbolicLink(
                    atPath: s.pins.appendingPathComponent(name).path,
                    withDestinationPath: target.replacing("ABSOLUTE", with: dir.path))
            }
            let before = try Self.tree(dir)
            let r = try s.check(["--update"])
            expectFailure(
                r, status: 65, names: ["pins/m.json", "entries[0].output", "leads outside", "--allow-outside"])
            #expect(try Self.tree(dir) == before, "written")

            let allowed = try s.check(["--update", "--allow-outside"])
            #expect(allowed.status == 0, "\(allowed.stdoutText)\(allowed.stderrText)")
            let landed =
                output == "x.gif" ? dir.appendingPathComponent("escaped.gif") : dir.appendingPathComponent("out/x.gif")
            #expect(try Pillow.decode(landed).hashes.count > 1, "the link's target holds the animation")
            #expect(Hostile.type(s.pins.appendingPathComponent(links[0].0).path) == S_IFLNK, "the link stays")
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test("a loop of links at an output is refused (exit 65, naming the JSON path), even with --allow-outside")
    func linkLoop() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [{"preset": "dots", "output": "l1.gif"}]}"#)
            for (name, target) in [("l1.gif", "l2.gif"), ("l2.gif", "l1.gif")] {
                try FileManager.default.createSymbolicLink(
                    atPath: s.pins.appendingPathComponent(name).path, withDestinationPath: target)
            }
            let before = try Self.tree(s.pins)
            for extra in [["--update"], ["--update", "--allow-outside"]] {
                expectFailure(try s.check(extra), status: 65, names: ["pins/m.json", "entries[0].output", "loop"])
            }
            #expect(try Self.tree(s.pins) == before)
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "paths in \"args\" (positional, after --, --icon=…) are held inside the folder too, and args may not set the output (exit 65 naming args[k])",
        arguments: [
            ("args[0]", "outside", #"{"encode": ["frames"], "args": ["../elsewhere"], "output": "x.gif"}"#),
            ("args[1]", "outside", #"{"encode": ["frames"], "args": ["--", "/etc/passwd"], "output": "x.gif"}"#),
            (
                "args[3]", "outside",
                #"{"render": "configs/dots.json", "args": ["--speed", "2", "--", "../x.json"], "output": "x.gif"}"#
            ),
            ("args[0]", "outside", #"{"preset": "ease", "args": ["--icon=../icon.png"], "output": "x.gif"}"#),
            (
                "args[3]", "--output",
                #"{"encode": ["frames"], "args": ["--fps", "5", "-o", "y.gif"], "output": "x.gif"}"#
            ),
            ("args[0]", "--output", #"{"preset": "dots", "args": ["--output=../y.gif"], "output": "x.gif"}"#),
        ])
    func argsPaths(key: String, words: String, entry: String) throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [\#(entry)]}"#)
            try Pillow.makeFrames(
                Pillow.distinctFrames(["a.png", "b.png", "icon.png"], width: 8, height: 8),
                in: dir.appendingPathComponent("elsewhere"))
            try FileManager.default.copyItem(
                at: dir.appendingPathComponent("elsewhere/icon.png"), to: dir.appendingPathComponent("icon.png"))
            try FileManager.default.copyItem(
                at: s.pins.appendingPathComponent("configs/dots.json"), to: dir.appendingPathComponent("x.json"))
            let before = try Self.tree(dir)
            let r = try s.check(["--update"])
            expectFailure(r, status: 65, names: ["pins/m.json", "entries[0].\(key)", words])
            #expect(try Self.tree(dir) == before, "written")
        }
    }

    @Test("a positional path in args inside the folder is an input as before")
    func argsInputInside() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(
                dir,
                manifest: #"{"entries": [{"encode": ["frames/a.png"], "args": ["frames/b.png"], "output": "x.gif"}]}"#
            )
            let r = try s.check(["--update"])
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
            let frames = try Pillow.decode(s.pins.appendingPathComponent("x.gif")).hashes
            #expect(
                frames
                    == (try Pillow.hashes(of: [
                        s.pins.appendingPathComponent("frames/a.png"), s.pins.appendingPathComponent("frames/b.png"),
                    ])))
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "--junit naming the manifest (by any spelling, a link or a hard link), an input, a config or an expected file is refused (exit 64) before anything runs",
        arguments: [
            ("pins/m.json", "the manifest"),
            ("pins/./frames/../m.json", "the manifest"),
            ("link.xml", "the manifest"),
            ("hard.xml", "the manifest"),
            ("pins/frames/a.png", "entries[0].encode[0]"),
            ("pins/configs/dots.json", "entries[1].render"),
            ("pins/x.gif", "entries[0].output"),
            ("pins/d.gif", "entries[1].output"),
        ])
    func junitOverwrites(junit: String, what: String) throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(
                dir,
                manifest:
                    #"{"entries": [{"encode": ["frames/a.png", "frames/b.png"], "output": "x.gif"}, {"render": "configs/dots.json", "output": "d.gif"}]}"#
            )
            try FileManager.default.createSymbolicLink(
                atPath: dir.appendingPathComponent("link.xml").path, withDestinationPath: s.manifest.path)
            #expect(link(s.manifest.path, dir.appendingPathComponent("hard.xml").path) == 0)
            let text = s.manifestText
            let before = try Self.tree(dir)
            for extra in [[], ["--update"]] {
                let r = try s.check(extra + ["--junit", junit])
                #expect(r.status == 64, "\(r.stdoutText)\(r.stderrText)")
                #expect(r.stdout.isEmpty, "an entry ran: \(r.stdoutText)")
                let line = r.stderrLines.first ?? ""
                #expect(line.contains("--junit \(junit)") && line.contains(what), "\(r.stderrText)")
            }
            #expect(s.manifestText == text)
            #expect(try Self.tree(dir) == before, "written")
        }
    }

    @Test("--diff-dir images that would overwrite an entry's input are not written; the input stays")
    func diffImagesOverwrite() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(
                dir,
                manifest:
                    #"{"entries": [{"preset": "dots", "args": ["--color", "red"], "output": "x.gif", "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}, {"encode": ["x.gif-frame1-expected.png"], "output": "y.gif"}]}"#
            )
            let expected = try Throbber.run(["preset", "dots", "-o", "pins/x.gif", "-q"], in: dir)
            #expect(expected.status == 0, "\(expected.stderrText)")
            let input = s.pins.appendingPathComponent("x.gif-frame1-expected.png")
            try FileManager.default.copyItem(at: s.pins.appendingPathComponent("frames/a.png"), to: input)
            let before = try Self.tree(s.pins)
            let r = try s.check(["--diff-dir", "pins"])
            #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
            #expect(r.stdoutText.contains("first differing frame 1"), "\(r.stdoutText)")
            #expect(
                r.stdoutText.contains(
                    "not writing difference images: pins/x.gif-frame1-expected.png is entries[1].encode[0]"),
                "\(r.stdoutText)")
            #expect(try Self.tree(s.pins) == before, "written")
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test("a FIFO in --diff-dir named like a difference image is not opened: no images, the run ends")
    func diffImageFifo() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(
                dir,
                manifest:
                    #"{"entries": [{"preset": "dots", "args": ["--color", "red"], "output": "x.gif", "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}]}"#
            )
            let expected = try Throbber.run(["preset", "dots", "-o", "pins/x.gif", "-q"], in: dir)
            #expect(expected.status == 0, "\(expected.stderrText)")
            let diffs = dir.appendingPathComponent("diffs")
            try FileManager.default.createDirectory(at: diffs, withIntermediateDirectories: false)
            try Hostile.mkfifo(diffs.appendingPathComponent("x.gif-frame1-actual.png"))
            let r = try s.check(["--diff-dir", "diffs"])
            #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
            #expect(
                r.stdoutText.contains("not writing difference images: diffs/x.gif-frame1-actual.png is a FIFO"),
                "\(r.stdoutText)")
            #expect(try listing(diffs) == ["x.gif-frame1-actual.png"])
            #expect(Hostile.type(diffs.appendingPathComponent("x.gif-frame1-actual.png").path) == S_IFIFO)
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "two entries with one output (same path after resolving, or a link to it), or an output that is the manifest or an input, are refused (exit 65, naming both JSON paths)",
        arguments: [
            ("entries[1].output", "entries[0].output", #"{"preset": "ring", "output": "./a.gif"}"#),
            ("entries[1].output", "entries[0].output", #"{"preset": "ring", "output": "frames/../a.gif"}"#),
            ("entries[1].output", "entries[0].output", #"{"preset": "ring", "output": "b.gif"}"#),
            ("entries[1].output", "the manifest", #"{"preset": "ring", "output": "m.json"}"#),
            ("entries[1].output", "entries[1].encode[0]", #"{"encode": ["frames/a.png"], "output": "frames/a.png"}"#),
            (
                "entries[1].output", "entries[1].render",
                #"{"render": "configs/dots.json", "output": "configs/dots.json"}"#
            ),
        ])
    func sharedOutputs(first: String, second: String, entry: String) throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [{"preset": "dots", "output": "a.gif"}, \#(entry)]}"#)
            try FileManager.default.createSymbolicLink(
                atPath: s.pins.appendingPathComponent("b.gif").path, withDestinationPath: "a.gif")
            let before = try Self.tree(s.pins)
            for extra in [[], ["--update"], ["--update", "--allow-outside"]] {
                let r = try s.check(extra)
                expectFailure(
                    r, status: 65, names: ["pins/m.json", first, second == "the manifest" ? "manifest itself" : second])
            }
            #expect(try Self.tree(s.pins) == before, "written")
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "an encode entry's output inside the folder it encodes, named like a frame: refused; another name or --glob is fine"
    )
    func outputInInputFolder() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [{"encode": ["frames"], "output": "frames/out.gif"}]}"#)
            let before = try Self.tree(s.pins)
            for extra in [[], ["--update"]] {
                expectFailure(
                    try s.check(extra), status: 65,
                    names: ["pins/m.json", "entries[0].output", "frames/out.gif", "entries[0].encode[0]", "as a frame"])
            }
            #expect(try Self.tree(s.pins) == before, "written")
            // Beside the folder, or a name the folder's --glob does not pick, is fine.
            for (output, args) in [("out.gif", "[]"), ("frames/out.gif", #"["--glob", "*.png"]"#)] {
                try s.write(#"{"entries": [{"encode": ["frames"], "args": \#(args), "output": "\#(output)"}]}"#)
                let r = try s.check(["--update"])
                #expect(r.status == 0, "\(output): \(r.stdoutText) \(r.stderrText)")
            }
            #expect(try listing(s.tmp) == [])
        }
    }

    @Test(
        "--update stopped by SIGTERM after an entry was made leaves no expected file and the manifest as it was: they are renamed into place together, the manifest last"
    )
    func interruptedUpdate() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(
                dir,
                manifest:
                    #"{"entries": [{"preset": "dots", "output": "a.gif"}, {"encode": ["../long"], "output": "long.gif"}]}"#
            )
            let long = try SignalTests.longFrames(in: dir)
            try FileManager.default.moveItem(at: long, to: dir.appendingPathComponent("long"))
            let text = s.manifestText
            let before = try listing(s.pins)
            let r = try SignalTests.interrupt(
                ["check", "pins/m.json", "--update", "--allow-outside"], in: dir, signal: SIGTERM,
                environment: ["TMPDIR": s.tmp.path]
            ) {
                // The first entry is done (its expected file written, or
                // staged), the second is being encoded.
                try listing(s.pins).contains { $0 == "a.gif" || $0.hasPrefix(".a.gif.throbber-") }
                    && listing(s.tmp).contains { name in
                        (try? SignalTests.hasTemporary(s.tmp.appendingPathComponent(name))) == true
                    }
            }
            #expect(r.status == 143, "\(r.stderr)")
            #expect(try listing(s.pins) == before, "an expected file or a temporary file was left")
            #expect(s.manifestText == text)
            #expect(try listing(s.tmp) == [], "scratch folder left")
        }
    }

    @Test("--junit into a missing folder fails (exit 73) before any entry runs; nothing is written")
    func junitFolderMissing() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(dir, manifest: #"{"entries": [{"preset": "dots", "output": "a.gif"}]}"#)
            let text = s.manifestText
            let before = try Self.tree(dir)
            let r = try s.check(["--update", "--junit", "missing/report.xml"])
            expectFailure(r, status: 73, names: ["missing/report.xml", "does not exist"])
            #expect(s.manifestText == text)
            #expect(try Self.tree(dir) == before, "written")
        }
    }

    @Test(
        "the scratch folder is a new one (mkdtemp): a folder named throbber-check-PID already in TMPDIR is left alone, and nothing else is left"
    )
    func scratchFolder() throws {
        try withTemporaryDirectory { dir in
            _ = try Setup(dir, manifest: #"{"entries": [{"preset": "dots", "output": "a.gif"}]}"#)
            // exec keeps the shell's PID, so the folder has the name check used to take.
            let r = try Hostile.shell(
                """
                mkdir tmp/throbber-check-$$ && echo kept > tmp/throbber-check-$$/file && \
                TMPDIR="$PWD/tmp" exec "$THROBBER" check pins/m.json --update
                """, in: dir, timeout: 60)
            #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
            let left = try listing(dir.appendingPathComponent("tmp"))
            #expect(left.count == 1 && left.first?.hasPrefix("throbber-check-") == true, "\(left)")
            if let name = left.first {
                let kept = dir.appendingPathComponent("tmp/\(name)/file")
                #expect((try? String(contentsOf: kept, encoding: .utf8)) == "kept\n")
            }
        }
    }

    @Test("entries that fail with errors still get a JUnit report, and the scratch folder is removed")
    func failingEntries() throws {
        try withTemporaryDirectory { dir in
            let s = try Setup(
                dir,
                manifest:
                    #"{"entries": [{"preset": "dots", "output": "a.gif"}, {"encode": ["missing"], "output": "b.gif"}, {"render": "frames/a.png", "output": "c.gif"}, {"preset": "dots", "args": ["--size", "-3"], "output": "d.gif"}]}"#
            )
            let r = try s.check(["--update", "--junit", "report.xml"])
            #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
            #expect(CheckKit.summary(r) == "1 passed, 3 failed", "\(r.stdoutText)")
            let script = """
                import json, sys, xml.etree.ElementTree as E
                suite = E.parse(sys.argv[1]).getroot().find("testsuite")
                print(json.dumps([c.find("failure") is not None for c in suite.findall("testcase")]))
                """
            let out = try Command.run(Pillow.python, ["-c", script, dir.appendingPathComponent("report.xml").path])
            #expect(out.status == 0, "\(out.stderrText)")
            #expect(out.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "[false, true, true, true]")
            #expect(try listing(s.tmp) == [], "scratch folder left")
            #expect(try listing(s.pins) == ["a.gif", "configs", "frames", "m.json"])
        }
    }
}
