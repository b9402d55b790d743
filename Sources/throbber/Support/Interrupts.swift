import FoundationEssentials
import Glibc
import ThrobberKit

/// SIGINT, SIGTERM and SIGHUP end the run without leaving anything behind:
/// the signals are blocked in every thread (threads made later inherit the
/// mask) and taken by one thread of their own with sigwait(2), which
/// deletes the registered temporary files and folders (``TemporaryPaths``)
/// and exits with 128 + the signal's number (130, 143, 129). Nothing runs
/// in a signal handler, so nothing there has to be async-signal-safe.
/// A signal the parent left ignored (nohup's SIGHUP) stays ignored.
enum Interrupts {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Call first thing in main, before any other thread starts.
    static func install() {
        let taken = signals.filter { !isIgnored($0) }
        guard !taken.isEmpty else { return }
        var set = sigset_t()
        sigemptyset(&set)
        for s in taken { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // The thread owns its copy of the set; it never returns.
        let waited = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        waited.initialize(to: set)
        var waiter = pthread_t()
        let made = pthread_create(
            &waiter, nil,
            { argument in
                let set = argument!.assumingMemoryBound(to: sigset_t.self)
                var number: Int32 = 0
                while sigwait(set, &number) != 0 {}
                TemporaryPaths.removeAll()
                _exit(128 + number)
            }, waited)
        if made == 0 { pthread_detach(waiter) }
    }

    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
