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
    /// several inputs (one alone is read by ``StreamFrameSource/init(path:)``).
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

    private func folderFiles(_ dir: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
        } catch {
            throw ThrobberError(.noInput, "\(dir): folder cannot be read")
        }
        let base = dir.hasSuffix("/") ? dir : dir + "/"
        let picked = names.filter { name in
            if name.hasPrefix(".") { return false }
            if let glob { return fnmatch(glob, name, 0) == 0 }
            let ext = PathText.pathExtension(name).lowercased()
            return FrameList.imageExtensions.contains(ext)
        }
        // One stat each, links followed: a FIFO would block the run, a device never ends.
        .filter { FileBytes.kind(base + $0) == .file }
        return picked.sorted(by: sort.areInIncreasingOrder).map { base + $0 }
    }
}
