import ThrobberCodecs
import ThrobberCore

// The tables of the lossy LZW coder: what it asks of each pixel, the
// candidates for a string's first pixel, and the storage behind its
// pointers.
extension LossyLZW {
    /// What the search asks of each pixel of the frame being coded.
    struct Cell {
        /// An entry that shows the same (or, with lossy keeps, close
        /// enough), `FewestRuns.none` if none.
        var alternative: Int16
        /// Whether it may take another entry than its own at all.
        var canChange: Bool
        /// The error of taking the alternative: its own, at least the
        /// token 1 an exact one costs.
        var cost: Int32
        /// How many times its distance a color other than its own or the
        /// alternative weighs here (`flatness`): 1, more where the source
        /// around the pixel is flat.
        var weight: UInt8 = 1
    }

    /// An entry `firstStep` may start a string with, and its error.
    struct Candidate {
        /// The entry's place in `byGreen`, which orders the candidates.
        var rank: Int16
        /// The palette entry.
        var entry: UInt8
        /// The error of the pixel showing it.
        var cost: Int32
    }

    /// Owns the coder's tables (plain pointers: no copy-on-write or
    /// exclusivity checks in the search); the coder keeps a pointer to
    /// each.
    final class Storage {
        let child = UnsafeMutablePointer<Int16>.allocate(capacity: 4096 << 8)
        let firstChild = UnsafeMutablePointer<Int16>.allocate(capacity: 4096)
        let nextSibling = UnsafeMutablePointer<Int16>.allocate(capacity: 4096)
        let pixelOf = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        let keyOf = UnsafeMutablePointer<Int32>.allocate(capacity: 4096)
        let path = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 16)
        let best = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 16)
        let held = UnsafeMutablePointer<Int16>.allocate(capacity: 1 << 16)
        let colors = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        let takes = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        let neighbor = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * 256)
        let neighborDistance = UnsafeMutablePointer<Int32>.allocate(capacity: 256 * 256)
        let listed = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        let neighborEnd = UnsafeMutablePointer<Int16>.allocate(capacity: 256 * GIFTuning.lossyRings)
        let greenRank = UnsafeMutablePointer<Int16>.allocate(capacity: 256)
        let candidate = UnsafeMutablePointer<Candidate>.allocate(capacity: 257)
        private(set) var cells = UnsafeMutablePointer<Cell>.allocate(capacity: 1)
        private var cellCapacity = 1

        /// Cells for a frame of `count` pixels.
        func cells(for count: Int) -> UnsafeMutablePointer<Cell> {
            if count > cellCapacity {
                cells.deallocate()
                cellCapacity = max(count, 2 * cellCapacity)
                cells = UnsafeMutablePointer<Cell>.allocate(capacity: cellCapacity)
            }
            return cells
        }

        /// The tables, allocated, with the dictionary empty.
        init() {
            child.initialize(repeating: 0, count: 4096 << 8)
            firstChild.initialize(repeating: 0, count: 4096)
            nextSibling.initialize(repeating: 0, count: 4096)
            pixelOf.initialize(repeating: 0, count: 4096)
            keyOf.initialize(repeating: -1, count: 4096)
            colors.initialize(repeating: 0, count: 256)
            takes.initialize(repeating: false, count: 256)
            neighbor.initialize(repeating: 0, count: 256 * 256)
            neighborDistance.initialize(repeating: 0, count: 256 * 256)
            listed.initialize(repeating: false, count: 256)
            neighborEnd.initialize(repeating: 0, count: 256 * GIFTuning.lossyRings)
            greenRank.initialize(repeating: -1, count: 256)
        }

        deinit {
            for p in [child, firstChild, nextSibling, path, best, held] { p.deallocate() }
            pixelOf.deallocate()
            keyOf.deallocate()
            colors.deallocate()
            takes.deallocate()
            neighbor.deallocate()
            neighborDistance.deallocate()
            listed.deallocate()
            neighborEnd.deallocate()
            greenRank.deallocate()
            candidate.deallocate()
            cells.deallocate()
        }
    }
}
