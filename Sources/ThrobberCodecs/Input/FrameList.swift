import FoundationEssentials
import Glibc
import ThrobberCore

#if canImport(Glibc)
    import Glibc
#endif

/// Turns the command line's `DIR|FILE...` into an ordered list of frame files.
/// A folder contributes its image files (or those matching `glob`) in the
/// chosen order; files given by name keep the order they were given in.
public struct FrameList: Sendable {
    /// Extensions picked up from a folder when no glob is given.
    public static let imageExtensions: Set<String> = ["png", "apng", "jpg", "jpeg", "gif", "webp"]

    /// How a folder's files are ordered; default ``FrameSort/natural``.
    public var sort: FrameSort
    /// A shell pattern (fnmatch(3)) that picks a folder's files by name,
    /// such as `frame_*.png`; nil: every file with an extension in
    /// ``imageExtensions`` (any case). Hidden files are never picked.
    public var glob: String?

    /// A list that orders folders by `sort` and picks their files with `glob`.
    public init(sort: FrameSort = .natural, glob: String? = nil) {
        self.sort = sort
        self.glob = glob
    }

    /// The frame files for `inputs`, in order: each folder's picked files
    /// (only regular files and links to them: subfolders, FIFOs, devices
    /// and sockets in a folder are skipped, never opened), each file as it
    /// is. Paths keep the form they were given in.
    ///
    /// Throws ``ThrobberError/Kind/noInput`` when an input does not exist,
    /// is a device or a socket, a folder cannot be read, or a folder has no
    /// file to pick; ``ThrobberError/Kind/usage`` for a pipe or FIFO among
    /// several inputs (one alone is read by ``StreamFrameSource/init(path:check:)``).
    public func files(for inputs: [String]) throws -> [String] {
        var files: [String] = []
        for input in inputs {
            switch FileBytes.kind(input) {
            case .missing(let code) where code == ENOENT || code == ENOTDIR:
                throw ThrobberError(.noInput, "\(input): no such file or folder")
            case .missing(let code):
                throw ThrobberError(.noInput, "\(input): cannot be read: \(String(cString: strerror(code)))")
            case .device(let what):
                throw FileBytes.refused(input, what)
            case .stream:
                throw ThrobberError(
                    .usage,
                    "\(input): is a pipe, read as a stream of frames (PNG files or YUV4MPEG2); it must be the only input"
                )
            case .folder:
                let found = try folderFiles(input)
                guard !found.isEmpty else {
                    let what = glob.map { "no files matching \"\($0)\"" } ?? "no PNG, JPEG, GIF or WebP files"
                    throw ThrobberError(.noInput, "\(input): folder has \(what)")
                }
                files += found
            case .file:
                files.append(input)
            }
        }
        return files
    }

    /// Whether a file named `name` in an input folder is one of its frames:
    /// not hidden, and matching ``glob`` (or, without one, with an extension
    /// in ``imageExtensions``).
    public func picks(_ name: String) -> Bool {
        if name.hasPrefix(".") { return false }
        if let glob { return fnmatch(glob, name, 0) == 0 }
        return FrameList.imageExtensions.contains(PathText.pathExtension(name).lowercased())
    }

    /// Refuses an output that is one of `inputs` or would become one:
    /// throws ``ThrobberError/Kind/usage`` when `output` (its links
    /// followed) is the same file as an input (device and inode), or would
    /// be written into a folder among `inputs` under a name this list picks
    /// there, so that a second run would read it as a frame. Nothing is
    /// opened; devices (`/dev/null`) and `-` are never taken for inputs.
    public func refuseOutput(_ output: String, among inputs: [String]) throws {
        guard output != "-", !output.isEmpty, let (target, _) = try? OutputFile.followLinks(output) else { return }
        let parent = PathText.parent(target)
        let folder = Self.identity(parent.isEmpty ? "." : parent)
        let existing = Self.identity(target)
        let name = PathText.lastComponent(target)
        for input in inputs where input != "-" {
            guard let id = Self.identity(input), !id.isDevice else { continue }
            if let existing, existing.dev == id.dev, existing.ino == id.ino {
                let named = input == output ? "" : " (\(input))"
                throw ThrobberError(.usage, "\(output): is also an input\(named); write the output elsewhere")
            }
            if id.isFolder, let folder, folder.dev == id.dev, folder.ino == id.ino, picks(name) {
                throw ThrobberError(
                    .usage,
                    "\(output): is in the input folder \(input), where the next run would read it as a frame; write the output elsewhere"
                )
            }
        }
    }

    /// What `path` is, links followed: its device and inode, and whether
    /// it is a folder or a device; nil when it does not exist.
    private static func identity(_ path: String) -> (dev: UInt, ino: UInt, isFolder: Bool, isDevice: Bool)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let type = st.st_mode & S_IFMT
        return (UInt(st.st_dev), UInt(st.st_ino), type == S_IFDIR, type == S_IFCHR || type == S_IFBLK)
    }

    private func folderFiles(_ dir: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
        } catch {
            throw ThrobberError(.noInput, "\(dir): folder cannot be read")
        }
        let base = dir.hasSuffix("/") ? dir : dir + "/"
        let picked = names.filter(picks)
            // One stat each, links followed: a FIFO would block the run, a device never ends.
            .filter { FileBytes.kind(base + $0) == .file }
        return picked.sorted(by: sort.areInIncreasingOrder).map { base + $0 }
    }
}
