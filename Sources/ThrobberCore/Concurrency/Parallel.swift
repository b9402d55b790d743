import Dispatch
import Synchronization

/// Runs `body` for 0..<count on up to `jobs` threads and returns the results
/// in index order. Which thread runs which index never shows in the result,
/// and the error reported is the one of the lowest failing index.
package func parallelMap<T: Sendable>(_ count: Int, jobs: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
    if jobs <= 1 || count <= 1 { return try (0..<count).map(body) }
    let results = Mutex<[Result<T, any Error>?]>(Array(repeating: nil, count: count))
    let workers = min(jobs, count)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for i in stride(from: worker, to: count, by: workers) {
            let result = Result { try body(i) }
            results.withLock { $0[i] = result }
        }
    }
    return try results.withLock { $0 }.map { result in
        guard let result else { throw ThrobberError(.software, "a parallel task did not run") }
        return try result.get()
    }
}
