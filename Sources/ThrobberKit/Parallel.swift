import Dispatch

/// Runs `body` for 0..<count on up to `jobs` threads and returns the results
/// in index order. Which thread runs which index never shows in the result,
/// and the error reported is the one of the lowest failing index.
func parallelMap<T>(_ count: Int, jobs: Int, _ body: (Int) throws -> T) throws -> [T] {
    if jobs <= 1 || count <= 1 { return try (0..<count).map(body) }
    let results = UnsafeMutableBufferPointer<Result<T, Error>?>.allocate(capacity: count)
    results.initialize(repeating: nil)
    defer { results.deinitialize(); results.deallocate() }
    let workers = min(jobs, count)
    withoutActuallyEscaping(body) { body in
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < count {
                results[i] = Result { try body(i) }
                i += workers
            }
        }
    }
    return try results.map { try $0!.get() }
}

/// Work started on another thread whose result is collected later: lets the
/// ordered writer run while the next frames are being prepared.
final class Pending<T>: @unchecked Sendable {
    private let group = DispatchGroup()
    private var result: Result<T, Error>?

    init(_ work: @escaping () throws -> T) {
        group.enter()
        DispatchQueue.global().async {
            self.result = Result { try work() }
            self.group.leave()
        }
    }

    func wait() throws -> T {
        group.wait()
        return try result!.get()
    }
}
