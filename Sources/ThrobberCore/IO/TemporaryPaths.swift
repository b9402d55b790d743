import FoundationEssentials
import Glibc

/// The temporary files and folders that must not outlive the process: an
/// ``OutputFile``'s temporary file until it is renamed, `check`'s scratch
/// folder. A signal that ends the run (SIGINT, SIGTERM, SIGHUP) is taken by
/// a thread of the executable, which calls ``removeAll()`` and exits.
///
/// Creating and renaming a temporary file happen under the same lock as
/// ``removeAll()``, so a signal cannot land between a file's creation and
/// its registration, nor remove a file that is being renamed into place.
public enum TemporaryPaths {
    private static let lock = Lock()
    nonisolated(unsafe) private static var files: Set<String> = []
    nonisolated(unsafe) private static var folders: Set<String> = []

    /// Runs `create` under the lock and registers the file it made (its
    /// path; nil when it made none).
    package static func creating(_ create: () -> String?) -> String? {
        lock.lock()
        defer { lock.unlock() }
        let made = create()
        if let made { files.insert(made) }
        return made
    }

    /// Runs `finish` (a rename or an unlink of `file`) under the lock, then
    /// forgets `file`.
    package static func finishing<T>(_ file: String, _ finish: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        files.remove(file)
        return finish()
    }

    /// Registers a folder to delete, with everything in it, if a signal
    /// ends the run.
    public static func add(folder: String) {
        lock.lock()
        defer { lock.unlock() }
        folders.insert(folder)
    }

    /// Forgets a folder registered with ``add(folder:)`` (call it once the
    /// folder is deleted).
    public static func remove(folder: String) {
        lock.lock()
        defer { lock.unlock() }
        folders.remove(folder)
    }

    /// Deletes every registered file and folder, then keeps the lock, so
    /// that no temporary file can be made or renamed into place afterwards:
    /// call it only just before the process exits.
    public static func removeAll() {
        lock.lock()
        for file in files { unlink(file) }
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        files = []
        folders = []
    }
}
