import FoundationEssentials
import Glibc
import ThrobberKit

/// The paths a manifest's entries name, resolved the way reading and
/// writing them will resolve them, and the rules `check` holds them to
/// before any entry is made:
///
/// - no entry reads standard input or another open descriptor (`-`,
///   `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`, or a link to one), and
///   no entry's `args` set the output;
/// - every path leads inside the manifest's folder (unless
///   `--allow-outside`), symbolic links followed, dangling ones included;
/// - an entry's config, inputs and file options are files or folders, not
///   FIFOs or devices, and with `--update` every expected file it writes is
///   a regular file or absent;
/// - no two entries share an output, and no output is the manifest or a
///   file an entry reads.
struct CheckPaths {
    /// One path an entry names.
    struct Named {
        /// Read by the entry (config, input, file option), or its output.
        enum Role { case read, output }

        /// The entry's index in the manifest.
        var entry: Int
        /// The JSON path inside the entry: `render`, `encode[1]`,
        /// `args[3]`, `output`.
        var key: String
        /// The path as the manifest gives it.
        var path: String
        /// Where it leads: absolute, every symbolic link followed.
        var resolved: String
        /// What the entry does with it.
        var role: Role

        /// `entries[N].KEY`.
        var jsonPath: String { "entries[\(entry)].\(key)" }
    }

    /// A path with its symbolic links followed.
    struct Resolved {
        /// Absolute, without `.`, `..` or links; parts that do not exist
        /// yet are kept as given.
        var path: String
        /// True when a link on the way was an open descriptor
        /// (`/proc/PID/fd/N`, which `/dev/stdin` and `/dev/fd/N` lead to).
        var throughDescriptor: Bool
    }

    /// The manifest the paths come from; messages name its file.
    let manifest: Manifest
    /// The manifest's folder, resolved.
    let root: String
    /// The manifest file, resolved.
    let manifestFile: String
    /// Every path the entries name, in manifest order.
    private(set) var named: [Named] = []

    /// Collects and resolves every path the entries name. Throws
    /// ``ThrobberError/Kind/data`` naming the manifest and the JSON path for
    /// standard input or another descriptor named as an entry's file, for
    /// `-o`/`--output` in `args`, and for a loop of symbolic links.
    init(_ manifest: Manifest) throws {
        self.manifest = manifest
        root = try Self.resolve(manifest.folder).path
        manifestFile = try Self.resolve(manifest.file).path
        for (i, entry) in manifest.entries.enumerated() {
            var paths: [(key: String, path: String, role: Named.Role)] = []
            let spec: CommandSpec
            switch entry.job {
            case .render(let config):
                paths.append(("render", config, .read))
                spec = RenderCommand.spec
            case .preset: spec = PresetCommand.spec
            case .encode(let inputs):
                paths += inputs.enumerated().map { ("encode[\($0)]", $1, .read) }
                spec = EncodeCommand.spec
            }
            // Arguments that do not parse fail when the entry is made, and
            // nothing in them is used.
            if let args = try? Arguments(entry.args, spec: spec) {
                let fileOptions = Set(
                    spec.options.filter { $0.takesValue && [.files, .folders].contains($0.completion) }.map(\.long))
                for given in args.given {
                    if given.option == "output" {
                        throw error(i, "args[\(given.index)]", "-o and --output are not for args; \"output\" names it")
                    }
                    // Every positional argument is a path for render and
                    // encode (a second config, more inputs).
                    if given.option.map(fileOptions.contains) ?? true {
                        paths.append(("args[\(given.index)]", given.value, .read))
                    }
                }
            }
            paths.append(("output", entry.output, .output))
            for (key, path, role) in paths {
                if role == .read, path == "-" {
                    throw error(i, key, "- is standard input, which check does not read; name a file or folder")
                }
                let r: Resolved
                do {
                    r = try Self.resolve(manifest.resolve(path))
                } catch let e as ThrobberError {
                    throw error(i, key, "\(CheckReport.printable(path)): \(e.message)")
                }
                if r.throughDescriptor {
                    throw error(
                        i, key,
                        "\(CheckReport.printable(path)) is standard input or output or another open descriptor, which an entry cannot use; name a file or folder"
                    )
                }
                named.append(Named(entry: i, key: key, path: path, resolved: r.path, role: role))
            }
        }
    }

    /// A ``ThrobberError/Kind/data`` error naming the manifest and
    /// `entries[entry].key`.
    private func error(_ entry: Int, _ key: String, _ why: String) -> ThrobberError {
        ThrobberError(.data, "\(manifest.file): entries[\(entry)].\(key): \(why)")
    }

    /// Throws ``ThrobberError/Kind/data`` naming the manifest and the JSON
    /// path for the first path that leads outside the manifest's folder.
    func checkContained() throws {
        for n in named where !contains(n.resolved) {
            throw error(
                n.entry, n.key,
                "\(CheckReport.printable(n.path)) leads outside the manifest's folder (\(CheckReport.printable(root))); give --allow-outside to allow it"
            )
        }
    }

    /// Throws ``ThrobberError/Kind/data`` naming both JSON paths when two
    /// entries have the same output, or an output is the manifest or a file
    /// an entry reads (the same path, or the same file by device and inode).
    func checkOutputs() throws {
        let outputs = named.filter { $0.role == .output }
        for (a, out) in outputs.enumerated() {
            if Self.same(out.resolved, manifestFile) {
                throw error(out.entry, out.key, "\(CheckReport.printable(out.path)) is the manifest itself")
            }
            for other in outputs[..<a] where Self.same(out.resolved, other.resolved) {
                throw error(
                    out.entry, out.key,
                    "\(CheckReport.printable(out.path)) is also the output of \(other.jsonPath); every entry needs its own output"
                )
            }
            for read in named where read.role == .read && Self.same(out.resolved, read.resolved) {
                throw error(
                    out.entry, out.key,
                    "\(CheckReport.printable(out.path)) is also read by \(read.jsonPath); an output cannot be an entry's file"
                )
            }
            // An expected file in a folder the entry encodes would be read
            // as a frame the next time the entry is made.
            guard case .encode = manifest.entries[out.entry].job else { continue }
            let glob = (try? Arguments(manifest.entries[out.entry].args, spec: EncodeCommand.spec))?.string("glob")
            let frames = FrameList(glob: glob)
            for read in named
            where read.role == .read && read.entry == out.entry
                && Self.same(PathText.parent(out.resolved), read.resolved)
                && FileBytes.kind(read.resolved) == .folder && frames.picks(PathText.lastComponent(out.resolved))
            {
                throw error(
                    out.entry, out.key,
                    "\(CheckReport.printable(out.path)) is in \(read.jsonPath), a folder the entry reads frames from, so the next check would read it as a frame; put it elsewhere"
                )
            }
        }
    }

    /// Refuses, before anything is opened, what would block or cannot be
    /// used: a FIFO, socket or device that an entry reads
    /// (``ThrobberError/Kind/noInput``) and, for the entries in `goldens`
    /// (whose expected files are written), an expected file that is
    /// anything but a regular file or absent
    /// (``ThrobberError/Kind/cannotCreate``). Both name the manifest and the
    /// JSON path.
    func checkKinds(goldens: Set<Int>) throws {
        for n in named {
            var st = stat()
            guard stat(n.resolved, &st) == 0 else { continue }  // missing: the entry fails when it is made
            let type = st.st_mode & S_IFMT
            let shown = CheckReport.printable(n.path)
            switch n.role {
            case .read where type != S_IFREG && type != S_IFDIR:
                throw ThrobberError(
                    .noInput,
                    "\(manifest.file): \(n.jsonPath): \(shown): is \(Self.describe(type)), not a file or folder; check reads only files and folders"
                )
            case .output where goldens.contains(n.entry) && type != S_IFREG:
                throw ThrobberError(
                    .cannotCreate,
                    "\(manifest.file): \(n.jsonPath): \(shown): is \(Self.describe(type)); the expected file must be a regular file or absent"
                )
            default: continue
            }
        }
    }

    /// What writing `path` (resolved) would overwrite: "the manifest" or
    /// an entry's file named by its JSON path; nil when it is none of them.
    func overwrites(_ path: String) -> String? {
        if Self.same(path, manifestFile) { return "the manifest" }
        return named.first { Self.same(path, $0.resolved) }.map { "\($0.jsonPath) (\(CheckReport.printable($0.path)))" }
    }

    /// Whether `path` (resolved) is the root or inside it.
    func contains(_ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// Whether two resolved paths are the same, or name the same file.
    static func same(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var sa = stat()
        var sb = stat()
        return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// "a FIFO", "a character device", … for a file type.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "not a regular file"
        }
    }

    /// `path` made absolute, with `.`, `..` and every symbolic link on the
    /// way followed as opening or creating it follows them: a relative link
    /// from its own folder, a dangling link to where its target would be.
    /// Parts that do not exist are kept as given. Throws
    /// ``ThrobberError/Kind/data`` for a loop (more than 40 links).
    static func resolve(_ path: String) throws -> Resolved {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        // Parts still to walk, the next one last.
        var pending = absolute.split(separator: "/").map(String.init).reversed() as [String]
        var done: [String] = []
        var links = 0
        var throughDescriptor = false
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                _ = done.popLast()
                continue
            }
            let candidate = "/" + (done + [part]).joined(separator: "/")
            var st = stat()
            guard lstat(candidate, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else {
                done.append(part)
                continue
            }
            links += 1
            guard links <= 40 else { throw ThrobberError(.data, "symbolic links lead in a loop") }
            if done.first == "proc" && done.last == "fd" { throughDescriptor = true }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let n = buffer.withUnsafeMutableBufferPointer { readlink(candidate, $0.baseAddress!, $0.count) }
            guard n > 0 else {
                done.append(part)
                continue
            }
            let target = String(decoding: buffer[0..<n], as: UTF8.self)
            if target.hasPrefix("/") { done = [] }
            pending += target.split(separator: "/").map(String.init).reversed()
        }
        return Resolved(path: "/" + done.joined(separator: "/"), throughDescriptor: throughDescriptor)
    }
}
