import Synchronization
import Testing

@testable import ThrobberKit

/// `parallelMap`: the results and the error do not depend on the threads.
@Suite("parallelMap")
struct ParallelMapTests {
    /// Tasks of very unequal cost, so that threads finish out of order.
    static func work(_ i: Int) -> Int {
        var x = UInt64(i) &+ 1
        for _ in 0..<(i % 3 == 0 ? 200_000 : 10) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        return i * i + Int(x % 2)
    }

    @Test("results in index order, every index run once, for 1, 2 and 5 jobs")
    func order() {
        let serial = (0..<97).map(Self.work)
        for jobs in [1, 2, 5] {
            let runs = Mutex([Int](repeating: 0, count: 97))
            let mapped = parallelMap(97, jobs: jobs) { i in
                runs.withLock { $0[i] += 1 }
                return Self.work(i)
            }
            #expect(mapped == serial)
            #expect(runs.withLock { $0 }.allSatisfy { $0 == 1 })
        }
        #expect(parallelMap(0, jobs: 2) { $0 }.isEmpty)
    }

    struct Failure: Error, Equatable { let index: Int }

    @Test("the error reported is the lowest failing index's")
    func lowestError() {
        for jobs in [1, 2, 4] {
            #expect(throws: Failure(index: 3)) {
                try parallelMap(40, jobs: jobs) { (i: Int) throws(Failure) -> Int in
                    if i == 3 || i == 17 || i == 39 { throw Failure(index: i) }
                    return Self.work(i)
                }
            }
        }
    }
}
