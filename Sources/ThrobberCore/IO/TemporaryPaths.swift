import FoundationEssentials
import Glibc
import Synchronization

/// The temporary files and folders that must not outlive the process: an
/// ``OutputFile``'s temporary file until it is renamed, `check`'s scratch
/// folder. A signal that ends the run (SIGINT, SIGTERM, SIGHUP) is taken by
/// a thread of the executable, which calls ``removeAll()`` and exits.
///
/// Creating and renaming a temporary file happen under the same lock as
/// ``removeAll()``, so a signal cannot land between a file's creation and
/// its registration, nor remove a file that is being renamed into place.
public enum TemporaryPaths {
    /// What is registered, and whether ``removeAll()`` has run.
    private struct Registry {
        var files: Set<String> = []
        var folders: Set<String> = []
        var closed = false
    }

    private static let registry = Mutex(Registry())

    /// Runs `body` under the lock. Once ``removeAll()`` has run, nothing
    /// more runs: the calling thread waits for the process to exit instead,
    /// so no temporary file is made or renamed into place afterwards.
    private static func locked<T: Sendable>(_ body: (inout Registry) -> T) -> T {
        let result = registry.withLock { registry -> T? in registry.closed ? nil : body(&registry) }
        guard let result else {
            while true { pause() }
        }
        return result
    }

    /// Runs `create` under the lock and registers the file it made (its
    /// path; nil when it made none).
    package static func creating(_ create: () -> String?) -> String? {
        locked { registry in
            let made = create()
            if let made { registry.files.insert(made) }
            return made
        }
    }

    /// Runs `finish` (a rename or an unlink of `file`) under the lock, then
    /// forgets `file`.
    package static func finishing<T: Sendable>(_ file: String, _ finish: () -> T) -> T {
        locked { registry in
            registry.files.remove(file)
            return finish()
        }
    }

    /// Registers a folder to delete, with everything in it, if a signal
    /// ends the run.
    public static func add(folder: String) {
        locked { _ = $0.folders.insert(folder) }
    }

    /// Forgets a folder registered with ``add(folder:)`` (call it once the
    /// folder is deleted).
    public static func remove(folder: String) {
        locked { _ = $0.folders.remove(folder) }
    }

    /// Deletes every registered file and folder, then closes the registry,
    /// so that no temporary file can be made or renamed into place
    /// afterwards (a thread that tries waits for the exit): call it only
    /// just before the process exits.
    public static func removeAll() {
        locked { registry in
            for file in registry.files { unlink(file) }
            for folder in registry.folders { try? FileManager.default.removeItem(atPath: folder) }
            registry = Registry(closed: true)
        }
    }
}
