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
            and the new one and tells the first frame that differs. An entry \
            without a "sha256" is reported NEW and fails the run with its own exit \
            status until --update records it; --junit reports it as a failure of \
            type "new". --update records \
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
                "junit", value: "file",
                help:
                    "Also write the results as a JUnit XML report, for CI systems: an entry that does not pass is a failure (type mismatch, cannot-be-made or new) that says what the terminal says.",
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
                    "0 all match, 1 a mismatch or an entry that fails, 2 entries with no hash recorded yet "
                    + "(reported NEW; nothing else failed), 64 a --junit FILE that is the manifest or an entry's file, "
                    + "65/66 a broken or missing manifest (or one whose entries lead outside its folder, read standard "
                    + "input or share an output), 73 an expected file, report or scratch folder that cannot be written."
            )
        ],
        examples: ["throbber check loaders.json --update", "throbber check loaders.json --diff-dir diffs/"])

    /// Exit status: 0 all match, 1 any mismatch or entry that fails, 2
    /// entries without a recorded hash (and nothing worse).
    // Long: the check's steps in order (checks, each entry, the commit); the entries share its report and staging.
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
        let paths = try checkedPaths(manifest, args, goldens: goldens, junit: junit)
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
            let made = temp + "/\(i)-" + PathText.lastComponent(entry.output)
            defer { try? FileManager.default.removeItem(atPath: made) }
            func result(_ status: CheckReport.Status, _ details: [String] = []) throws {
                let r = report.add(
                    entry.output, status: status, details: details, seconds: Date().timeIntervalSince(started))
                try say(r.terminalText)
            }
            let bytes: [UInt8]
            do {
                bytes = try makeBytes(entry, at: made, manifest: manifest, jobs: jobs)
                if goldens, let target = paths.named.first(where: { $0.entry == i && $0.role == .output }) {
                    try staging.stage(bytes, at: target.resolved, name: entry.output)
                }
            } catch {
                let e = error as? ThrobberError ?? ForeignError.converted(error)
                try result(.cannotBeMade, ["cannot be made: \(CheckReport.printable(e.message))"])
                continue
            }
            let hash = SHA256.hex(bytes)
            if update {
                manifest.entries[i].sha256 = hash
                try result(.updated(hash))
            } else if let expected = entry.sha256 {
                if expected == hash {
                    try result(.passed)
                } else {
                    let why = explain(entry, made: made, manifest: manifest, paths: paths, diffDir: diffDir)
                    try result(.mismatch, ["sha256 \(hash), expected \(expected)"] + why)
                }
            } else {
                try result(.new, ["no hash recorded yet; run 'throbber check --update' to record it"])
            }
        }
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
        try StandardOutput.write(report.summary + "\n")
        return report.exitStatus
    }

    /// The paths of `manifest`'s entries, after every rule about them is
    /// checked (before anything is made): inside its folder unless
    /// --allow-outside, distinct outputs, the right kinds, and a --junit
    /// report `junit` that overwrites none of them.
    private static func checkedPaths(_ manifest: Manifest, _ args: Arguments, goldens: Bool, junit: String?) throws
        -> CheckPaths
    {
        let paths = try CheckPaths(manifest)
        if !args.flag("allow-outside") { try paths.checkContained() }
        try paths.checkOutputs()
        try paths.checkKinds(goldens: goldens)
        if let junit, junit != "-", let what = paths.overwrites(try CheckPaths.resolve(junit).path) {
            throw ThrobberError(.usage, "--junit \(CheckReport.printable(junit)): is \(what); give another file")
        }
        return paths
    }

    /// Makes `entry` at `made` and returns the bytes written.
    private static func makeBytes(_ entry: Manifest.Entry, at made: String, manifest: Manifest, jobs: Int?) throws
        -> [UInt8]
    {
        try make(entry, at: made, manifest: manifest, jobs: jobs)
        guard let data = FileManager.default.contents(atPath: made) else {
            throw ThrobberError(.data, "the command wrote no output")
        }
        return [UInt8](data)
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

    /// Explains a mismatch by decoding both files, if the expected one is
    /// there, and writes the difference images to `diffDir`: the lines that
    /// say what was found, for the terminal and the JUnit report.
    private static func explain(
        _ entry: Manifest.Entry, made: String, manifest: Manifest, paths: CheckPaths, diffDir: String?
    ) -> [String] {
        let expectedPath = manifest.resolve(entry.output)
        let vector = vectorFormat(entry)
        guard FileManager.default.fileExists(atPath: expectedPath) else {
            let what = vector == nil ? "pixels" : "bytes"
            return ["(no expected file at \(CheckReport.printable(expectedPath)) to compare \(what) with)"]
        }
        if let vector {
            return explainBytes(
                vector, entry: entry, expected: expectedPath, made: made, paths: paths, diffDir: diffDir)
        }
        do {
            let expected = try DecodedAnimation.read(expectedPath, streams: false)
            let actual = try DecodedAnimation.read(made)
            guard let d = AnimationDiff.compare(expected: expected, actual: actual) else {
                return ["the files differ in bytes but show the same frames, delays and loop count"]
            }
            let region = d.region.map { " within \($0)" } ?? ""
            var line =
                "first differing frame \(d.number): \(d.differingPixels) pixels differ\(region), largest channel difference \(d.largestChannelDifference)"
            if let note = d.note { line += " (\(note))" }
            guard let diffDir else { return [line] }
            do {
                return [line, try writeImages(d, entry: entry, paths: paths, diffDir: diffDir)]
            } catch {
                let e = error as? ThrobberError ?? ForeignError.converted(error)
                return [line, "cannot write difference images: \(e.message)"]
            }
        } catch let e as ThrobberError {
            return ["cannot compare pixels: \(e.message)"]
        } catch {
            return ["cannot compare pixels: \(ForeignError.converted(error).message)"]
        }
    }

    /// Writes the expected, actual and difference images of `d`'s frame
    /// into `diffDir`, unless one would replace a file an entry names or
    /// something not a regular file; the line that says which.
    private static func writeImages(_ d: AnimationDiff, entry: Manifest.Entry, paths: CheckPaths, diffDir: String)
        throws -> String
    {
        // The whole output path names the images, so a.gif and a.png
        // (or two folders' a.gif) do not overwrite each other.
        let stem = diffDir + "/" + entry.output.replacing("/", with: "_")
        let images = [("expected", d.expected), ("actual", d.actual), ("difference", d.difference)]
        for (suffix, _) in images {
            let image = "\(stem)-frame\(d.number)-\(suffix).png"
            if let what = try blocked(image, paths: paths) {
                return "not writing difference images: \(CheckReport.printable(image)) is \(what)"
            }
        }
        for (suffix, image) in images {
            let out = try OutputFile(path: "\(stem)-frame\(d.number)-\(suffix).png")
            try out.write(try PNGStillWriter.encode(image))
            try out.commit()
        }
        return "wrote \(CheckReport.printable(stem))-frame\(d.number)-{expected,actual,difference}.png"
    }

    /// What `file` is when writing it would replace a file an entry names
    /// or something not a regular file; nil when it may be written.
    static func blocked(_ file: String, paths: CheckPaths) throws -> String? {
        let resolved = try CheckPaths.resolve(file).path
        var st = stat()
        return paths.overwrites(resolved)
            ?? (stat(resolved, &st) == 0 && st.st_mode & S_IFMT != S_IFREG
                ? CheckPaths.describe(st.st_mode & S_IFMT) : nil)
    }

    private static func say(_ line: String, error: Bool = false) throws {
        if error {
            StandardError.write(line + "\n")
        } else {
            try StandardOutput.write(line + "\n")
        }
    }
}
