import Dispatch
import Synchronization

/// Work started on another thread whose result is collected later: lets the
/// ordered writer run while the next frames are being prepared.
package final class Pending<T: Sendable>: Sendable {
    private let group = DispatchGroup()
    private let result = Mutex<Result<T, any Error>?>(nil)

    package init(_ work: @escaping @Sendable () throws -> T) {
        group.enter()
        DispatchQueue.global().async { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            group.leave()
        }
    }

    /// Waits for the work and returns its result (or throws its error).
    package func wait() throws -> T {
        group.wait()
        guard let outcome = result.withLock({ $0 }) else {
            throw ThrobberError(.software, "background work ended without a result")
        }
        return try outcome.get()
    }
}
