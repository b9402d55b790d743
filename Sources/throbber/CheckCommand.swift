import FoundationEssentials
import Glibc
import ThrobberKit

/// `throbber check MANIFEST.json [--update] [--diff-dir DIR]`: re-make every
/// entry of a regression manifest in a temporary folder and compare SHA-256.
enum CheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "Re-make the entries of a regression manifest and compare their SHA-256.",
        overview: """
            Pin the SHA-256 of the files Throbber makes, for your CI.

            A manifest lists entries to make — {"render": CONFIG}, {"preset": NAME}, \
            or {"encode": [INPUTS]}, each with "args", an "output" name and its \
            "sha256" — with paths relative to the manifest. check makes every entry \
            in a temporary folder (your files are not touched) and compares. On a \
            mismatch it decodes the expected file (the "output" path, if it exists) \
            and the new one and tells the first frame that differs. --update records \
            the hashes and writes each output at its "output" path as the expected \
            file, together with the manifest. Every path an entry names, in "args" \
            too, must lead inside the manifest's folder; none may be standard input, \
            and no two entries may share an output.
            """,
        usage:
            "throbber check <MANIFEST.json> [--update] [--hashes-only] [--diff-dir DIR] [--junit FILE] "
            + "[--allow-outside]",
        arguments: [ArgumentSpec(name: "<MANIFEST.json>", help: "The regression manifest.", completion: .files)],
        options: [
            OptionSpec(
                "update",
                help:
                    "Record every entry's current SHA-256 and the library versions that made them, and write each output at its \"output\" path as the expected file."
            ),
            OptionSpec("hashes-only", help: "With --update: record the hashes only, write no expected files."),
            OptionSpec(
                "diff-dir", value: "dir",
                help: "Write expected, actual and difference PNGs of the first differing frame of each mismatch.",
                completion: .folders),
            OptionSpec(
                "junit", value: "file", help: "Also write the results as a JUnit XML report, for CI systems.",
                completion: .files),
            OptionSpec(
                "allow-outside",
                help:
                    "Let entries name configs, inputs and outputs outside the manifest's folder (or through links out of it)."
            ),
            .jobs, .help,
        ],
        notes: [
            .init(
                title: "EXIT STATUS",
                text:
                    "0 all match, 1 a mismatch or an entry that fails, 64 a --junit FILE that is the manifest or an entry's file, "
                    + "65/66 a broken or missing manifest (or one whose entries lead outside its folder, read standard "
                    + "input or share an output), 73 an expected file, report or scratch folder that cannot be written."
            )
        ],
        examples: ["throbber check loaders.json --update", "throbber check loaders.json --diff-dir diffs/"])

    /// Exit status: 0 all match, 1 any mismatch or entry that fails.
    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1, let file = args.positional.first else {
            throw ThrobberError(.usage, args.positional.isEmpty ? "no manifest given" : "give one manifest")
        }
        var manifest = try Manifest.load(file)
        let update = args.flag("update")
        let jobs = try args.int("jobs", in: 1...256)
        let diffDir = args.string("diff-dir")
        let junit = args.string("junit")
        let goldens = update && !args.flag("hashes-only")
        if args.flag("hashes-only") && !update { throw ThrobberError(.usage, "--hashes-only goes with --update") }
        // Every rule about the entries' paths holds before anything is made.
        let paths = try CheckPaths(manifest)
        if !args.flag("allow-outside") { try paths.checkContained() }
        try paths.checkOutputs()
        try paths.checkKinds(goldens: goldens)
        if let junit, junit != "-", let what = paths.overwrites(try CheckPaths.resolve(junit).path) {
            throw ThrobberError(.usage, "--junit \(CheckReport.printable(junit)): is \(what); give another file")
        }
        if let diffDir { try Output.makeFolder(diffDir) }
        // Opened now, so a report that cannot be written fails before any entry runs.
        let junitFile = try junit.map { try OutputFile(path: $0) }
        if !update, !manifest.versionChanges.isEmpty {
            try say(
                "note: the recorded library versions differ (\(manifest.versionChanges.joined(separator: ", "))); hashes may change legitimately",
                error: true)
        }
        let temp = try makeScratchFolder()
        defer {
            try? FileManager.default.removeItem(atPath: temp)
            TemporaryPaths.remove(folder: temp)
        }

        let staging = CheckStaging()
        var report = CheckReport(manifest: file)
        for (i, entry) in manifest.entries.enumerated() {
            let started = Date()
            let name = CheckReport.printable(entry.output)
            let made = temp + "/\(i)-" + PathText.lastComponent(entry.output)
            defer { try? FileManager.default.removeItem(atPath: made) }
            func fail(_ why: String) throws {
                try say("FAILED  \(name): \(why)")
                report.add(entry.output, failure: why, seconds: Date().timeIntervalSince(started))
            }
            let bytes: [UInt8]
            do {
                try make(entry, at: made, manifest: manifest, jobs: jobs)
                guard let data = FileManager.default.contents(atPath: made) else {
                    throw ThrobberError(.data, "the command wrote no output")
                }
                bytes = [UInt8](data)
                if goldens, let target = paths.named.first(where: { $0.entry == i && $0.role == .output }) {
                    try staging.stage(bytes, at: target.resolved, name: entry.output)
                }
            } catch {
                let e = error as? ThrobberError ?? ForeignError.converted(error)
                try fail("cannot be made: \(CheckReport.printable(e.message))")
                continue
            }
            let hash = SHA256.hex(bytes)
            if update {
                manifest.entries[i].sha256 = hash
                try say("updated \(name)  \(hash)")
            } else if entry.sha256 == hash {
                try say("ok      \(name)")
            } else {
                try fail("sha256 \(hash), expected \(entry.sha256 ?? "(none recorded; run --update)")")
                try explain(entry, made: made, manifest: manifest, paths: paths, diffDir: diffDir)
                continue
            }
            report.add(entry.output, failure: nil, seconds: Date().timeIntervalSince(started))
        }
        let failed = report.results.filter { $0.failure != nil }.count
        let passed = report.results.count - failed
        if update {
            // The expected files and the manifest change together, the manifest last.
            manifest.versions = LibraryVersions.current
            try staging.stage(Array(manifest.serialized().utf8), at: paths.manifestFile, name: file)
            try staging.commit()
        }
        if let junitFile {
            try junitFile.write(Array(report.junit().utf8))
            try junitFile.commit()
        }
        try StandardOutput.write("\(passed) passed, \(failed) failed\n")
        return failed == 0 ? 0 : 1
    }

    /// Makes the scratch folder, a new one with an unpredictable name in the
    /// temporary folder, registered to be removed if a signal ends the run.
    private static func makeScratchFolder() throws -> String {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base + "/throbber-check-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw ThrobberError(
                .cannotCreate, "\(base): cannot create a scratch folder: \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        TemporaryPaths.add(folder: path)
        return path
    }

    /// Makes the entry as its command would, from the same declarations and
    /// requests, with relative paths resolved against the manifest's folder.
    private static func make(_ entry: Manifest.Entry, at output: String, manifest: Manifest, jobs: Int?) throws {
        let base = BaseFolder.folder(manifest.folder)
        func arguments(_ spec: CommandSpec, _ head: [String]) throws -> Arguments {
            var args = try Arguments(entry.args, spec: spec)
            for flag in ["help", "print-config"] where args.flag(flag) {
                throw ThrobberError(.data, "--\(flag) writes no file")
            }
            args.prepend(positional: head)
            args.set("output", output)
            args.set("quiet")
            if let jobs { args.set("jobs", String(jobs)) }
            return args
        }
        switch entry.job {
        case .render(let config): try RenderRequest(try arguments(RenderCommand.spec, [config]), base: base).run()
        case .preset(let name): try PresetRequest(try arguments(PresetCommand.spec, [name]), base: base).run()
        case .encode(let inputs): try EncodeRequest(try arguments(EncodeCommand.spec, inputs), base: base).run()
        }
    }

    /// Explains a mismatch by decoding both files, if the expected one is there.
    private static func explain(
        _ entry: Manifest.Entry, made: String, manifest: Manifest, paths: CheckPaths, diffDir: String?
    ) throws {
        let expectedPath = manifest.resolve(entry.output)
        guard FileManager.default.fileExists(atPath: expectedPath) else {
            try say("        (no expected file at \(CheckReport.printable(expectedPath)) to compare pixels with)")
            return
        }
        do {
            let expected = try DecodedAnimation.read(expectedPath, streams: false)
            let actual = try DecodedAnimation.read(made)
            guard let d = AnimationDiff.compare(expected: expected, actual: actual) else {
                try say("        the files differ in bytes but show the same frames, delays and loop count")
                return
            }
            var line =
                "        first differing frame \(d.frame): \(d.differingPixels) pixels differ, largest channel difference \(d.largestChannelDifference)"
            if let note = d.note { line += " (\(note))" }
            try say(line)
            if let diffDir {
                // The whole output path names the images, so a.gif and a.png
                // (or two folders' a.gif) do not overwrite each other.
                let stem = diffDir + "/" + entry.output.replacing("/", with: "_")
                let images = [("expected", d.expected), ("actual", d.actual), ("difference", d.difference)]
                for (suffix, _) in images {
                    let image = "\(stem)-frame\(d.frame)-\(suffix).png"
                    let resolved = try CheckPaths.resolve(image).path
                    var st = stat()
                    let what =
                        paths.overwrites(resolved)
                        ?? (stat(resolved, &st) == 0 && st.st_mode & S_IFMT != S_IFREG
                            ? CheckPaths.describe(st.st_mode & S_IFMT) : nil)
                    if let what {
                        try say("        not writing difference images: \(CheckReport.printable(image)) is \(what)")
                        return
                    }
                }
                for (suffix, image) in images {
                    let out = try OutputFile(path: "\(stem)-frame\(d.frame)-\(suffix).png")
                    try out.write(try PNGStillWriter.encode(image))
                    try out.commit()
                }
                try say("        wrote \(CheckReport.printable(stem))-frame\(d.frame)-{expected,actual,difference}.png")
            }
        } catch let e as ThrobberError {
            try say("        cannot compare pixels: \(e.message)")
        } catch {
            try say("        cannot compare pixels: \(ForeignError.converted(error).message)")
        }
    }

    private static func say(_ line: String, error: Bool = false) throws {
        if error {
            StandardError.write(line + "\n")
        } else {
            try StandardOutput.write(line + "\n")
        }
    }
}
