import FoundationEssentials
import Glibc
import ThrobberKit

/// `throbber check MANIFEST.json [--update [ENTRY…]] [--diff-dir DIR]`:
/// re-make every entry of a regression manifest in a temporary folder and
/// compare SHA-256, or record them. Its declaration is in
/// `CheckCommand+Spec.swift`.
enum CheckCommand: Subcommand {
    /// What `--update` records under `"versions"`: Throbber's own, then
    /// every library's (``LibraryVersions``).
    static var runningVersions: [(name: String, version: String)] {
        [("throbber", RootCommand.version)] + LibraryVersions.current
    }

    /// Exit status: 0 all match, 1 any mismatch or entry that fails, 2
    /// entries without a recorded hash (and nothing worse).
    // Long: the check's steps in order (checks, each entry, the commit); the entries share its report and staging.
    static func run(_ args: Arguments) throws -> Int32 {
        guard let file = args.positional.first else { throw ThrobberError(.usage, "no manifest given") }
        let names = Array(args.positional.dropFirst())
        let update = args.flag("update")
        if !names.isEmpty && !update {
            throw ThrobberError(
                .usage,
                "give one manifest; entry names after it (\(names.map(CheckReport.printable).joined(separator: " "))) go with --update, which records only those"
            )
        }
        var manifest = try load(file, withNames: !names.isEmpty)
        let jobs = try args.int("jobs", in: 1...256)
        let diffDir = args.string("diff-dir")
        let junit = args.string("junit")
        if args.flag("hashes-only") && !update { throw ThrobberError(.usage, "--hashes-only goes with --update") }
        let (paths, recording) = try checkedPaths(manifest, args, names: update ? names : nil, junit: junit)
        let goldens = !args.flag("hashes-only")
        if let diffDir { try Output.makeFolder(diffDir) }
        // Opened now, so a report that cannot be written fails before any entry runs.
        let junitFile = try junit.map { try OutputFile(path: $0) }
        let running = runningVersions
        let changes = manifest.versionChanges(running: running)
        // Entries checked against their recorded hashes: say why those may differ.
        if recording.count < manifest.entries.count, !changes.isEmpty {
            try say(
                "note: the recorded versions differ (\(changes.joined(separator: ", "))); hashes may change legitimately",
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
                if goldens, recording.contains(i),
                    let target = paths.named.first(where: { $0.entry == i && $0.role == .output })
                {
                    try staging.stage(bytes, at: target.resolved, name: entry.output)
                }
            } catch {
                let e = error as? ThrobberError ?? ForeignError.converted(error)
                try result(.cannotBeMade, ["cannot be made: \(CheckReport.printable(e.message))"])
                continue
            }
            let hash = SHA256.hex(bytes)
            if recording.contains(i) {
                manifest.entries[i].sha256 = hash
                try result(entry.sha256 == nil ? .added(hash) : entry.sha256 == hash ? .unchanged : .updated(hash))
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
            manifest.versions = running
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

    /// The manifest at `file`. When entry names follow it, an error says
    /// that the manifest comes first, in case the order was swapped.
    private static func load(_ file: String, withNames: Bool) throws -> Manifest {
        do {
            return try Manifest.load(file)
        } catch let e as ThrobberError where withNames {
            throw ThrobberError(e.kind, e.message + " (the manifest comes first, the entries to record after it)")
        }
    }

    /// The paths of `manifest`'s entries, after every rule about them is
    /// checked (before anything is made): inside its folder unless
    /// --allow-outside, distinct outputs, the right kinds, and a --junit
    /// report `junit` that overwrites none of them; and the entries to
    /// record: none without --update (`names` nil), every one for
    /// `--update` alone, else those `names` match (``CheckSelection``).
    private static func checkedPaths(_ manifest: Manifest, _ args: Arguments, names: [String]?, junit: String?)
        throws -> (CheckPaths, recording: Set<Int>)
    {
        let paths = try CheckPaths(manifest)
        if !args.flag("allow-outside") { try paths.checkContained() }
        try paths.checkOutputs()
        let recording: Set<Int> =
            switch names {
            case nil: []
            case let names? where names.isEmpty: Set(manifest.entries.indices)
            case let names?: try CheckSelection.entries(names, paths: paths)
            }
        try paths.checkKinds(goldens: args.flag("hashes-only") ? [] : recording)
        if let junit, junit != "-", let what = paths.overwrites(try CheckPaths.resolve(junit).path) {
            throw ThrobberError(.usage, "--junit \(CheckReport.printable(junit)): is \(what); give another file")
        }
        return (paths, recording)
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

    private static func say(_ line: String, error: Bool = false) throws {
        if error {
            StandardError.write(line + "\n")
        } else {
            try StandardOutput.write(line + "\n")
        }
    }
}
