import Dispatch
import Synchronization

/// Runs `body` for 0..<count on up to `jobs` threads and returns the results
/// in index order. Which thread runs which index never shows in the result,
/// and the error reported is the one of the lowest failing index. A body
/// that cannot throw makes a call that cannot either.
package func parallelMap<T: Sendable, E: Error>(
    _ count: Int, jobs: Int, _ body: @Sendable (Int) throws(E) -> T
) throws(E) -> [T] {
    if jobs <= 1 || count <= 1 { return try (0..<count).map(body) }
    let results = Mutex<[Result<T, E>?]>(Array(repeating: nil, count: count))
    // Each worker takes the next index as it comes free, so tasks of
    // unequal cost (a frame's candidate codings) keep every thread busy.
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
        while true {
            let i = next.add(1, ordering: .relaxed).oldValue
            guard i < count else { return }
            let result = Result { () throws(E) -> T in try body(i) }
            results.withLock { $0[i] = result }
        }
    }
    var mapped: [T] = []
    mapped.reserveCapacity(count)
    // Every index was taken by a worker before concurrentPerform returned.
    for result in results.withLock({ $0 }) { mapped.append(try result!.get()) }
    return mapped
}
