import Glibc

/// A mutex that is taken and given back by name, for the one place that
/// must take it and never give it back (``TemporaryPaths/removeAll()``,
/// just before the process exits), which `Mutex.withLock` cannot express.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }
}
