import FoundationEssentials
import Glibc
import ThrobberKit

/// Files that `check --update` replaces together (the expected files, then
/// the manifest): each is written in full to a temporary file beside its
/// target (or in the nearest folder above it that exists), closed, and
/// renamed into place only by ``commit()``, in the order staged, its
/// missing folders made then. The temporary files are registered with
/// ``TemporaryPaths``, so a signal before the renames leaves every target
/// as it was; no descriptor stays open between files, so a manifest of
/// any length fits under the open-file limit.
final class CheckStaging {
    /// One file waiting to be renamed into place.
    private struct Staged {
        var temporary: String
        /// Where it goes, its symbolic links already followed.
        var target: String
        /// How messages call it.
        var name: String
    }

    private var staged: [Staged] = []

    deinit { discard() }

    /// Writes `bytes` to a new temporary file in `target`'s folder, or in
    /// the nearest folder above it that exists (the missing ones are made
    /// by ``commit()``), with mode 0666 less the umask, synced to disk.
    /// Throws ``ThrobberError/Kind/cannotCreate`` when it cannot be
    /// created, ``ThrobberError/Kind/io`` when writing fails; nothing is
    /// left then.
    func stage(_ bytes: [UInt8], at target: String, name: String) throws {
        var folder = PathText.parent(target).isEmpty ? "." : PathText.parent(target)
        var st = stat()
        while stat(folder, &st) != 0, !PathText.parent(folder).isEmpty, PathText.parent(folder) != folder {
            folder = PathText.parent(folder)
        }
        let (fd, temporary) = try OutputFile.temporaryFile(
            in: folder, for: PathText.lastComponent(target), named: name)
        var failure: Int32 = 0
        var offset = 0
        while failure == 0 && offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno != EINTR {
                failure = errno
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            TemporaryPaths.finishing(temporary) { _ = unlink(temporary) }
            throw ThrobberError(.io, "\(name): \(String(cString: strerror(failure)))")
        }
        staged.append(Staged(temporary: temporary, target: target, name: name))
    }

    /// Renames every staged file into place, in the order staged. Throws
    /// ``ThrobberError/Kind/cannotCreate`` naming the file whose rename
    /// failed; the files after it are discarded, those before it stay.
    func commit() throws {
        while !staged.isEmpty {
            let s = staged.removeFirst()
            let folder = PathText.parent(s.target)
            if !folder.isEmpty && PathText.parent(s.temporary) != folder {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    TemporaryPaths.finishing(s.temporary) { _ = unlink(s.temporary) }
                    discard()
                    throw ThrobberError(.cannotCreate, "\(folder): cannot create the folder for \(s.name)")
                }
            }
            let failure = TemporaryPaths.finishing(s.temporary) { () -> Int32 in
                if rename(s.temporary, s.target) == 0 { return 0 }
                let e = errno
                unlink(s.temporary)
                return e
            }
            if failure != 0 {
                discard()
                throw ThrobberError(
                    .cannotCreate, "\(s.name): cannot create output: \(String(cString: strerror(failure)))")
            }
        }
    }

    /// Deletes every staged temporary file, leaving the targets as they were.
    func discard() {
        for s in staged { TemporaryPaths.finishing(s.temporary) { _ = unlink(s.temporary) } }
        staged = []
    }
}
