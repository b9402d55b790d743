import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// The most memory one run may use for frames: checked, from frame sizes
/// read in headers, before any pixel is decoded, so a run that would not
/// fit is refused in milliseconds with the figure instead of being killed
/// halfway (an allocation failure cannot be caught in Swift).
///
/// What a run needs is estimated by the encoder (``AnimationEncoder``):
/// the animations it holds decoded, plus a few frames per batch in flight.
public struct MemoryBudget: Sendable, Equatable {
    /// Bytes a run may use.
    public var limit: Int

    /// A budget of `limit` bytes.
    public init(limit: Int) { self.limit = limit }

    /// Address space the runtime reserves apart from frames (thread
    /// stacks, malloc arenas, libraries): about 300 MB measured with two
    /// threads; kept free when the address space is limited (`ulimit -v`).
    public static let runtimeReserve = 384 << 20

    /// The default: half the machine's memory, and no more than three
    /// quarters of a cgroup memory limit or of what `ulimit -v`/`-d` leaves
    /// after ``runtimeReserve``; at least 64 MiB.
    public static var machineDefault: MemoryBudget {
        var limit = physicalMemory / 2
        if let group = cgroupLimit { limit = min(limit, group / 4 * 3) }
        for resource in [RLIMIT_AS, RLIMIT_DATA] {
            var r = rlimit()
            if getrlimit(__rlimit_resource_t(resource.rawValue), &r) == 0, r.rlim_cur < UInt64(Int.max) {
                limit = min(limit, max(0, Int(r.rlim_cur) - runtimeReserve) / 4 * 3)
            }
        }
        return MemoryBudget(limit: max(limit, 64 << 20))
    }

    private static var physicalMemory: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, size > 0 else { return 4 << 30 }
        return pages.multipliedReportingOverflow(by: size).overflow ? Int.max : pages * size
    }

    /// cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes`, when set.
    private static var cgroupLimit: Int? {
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            if let value = Int(text.trimmedWhitespace()), value < 1 << 60 {
                return value
            }
        }
        return nil
    }

    /// Throws when `needs` bytes are more than the budget: exit 65 with
    /// both figures, what needs them and what would help.
    public func check(_ needs: Int, for what: String) throws {
        guard needs > limit else { return }
        throw ThrobberError(
            .data,
            "\(what) needs about \(Self.describe(needs)) of memory, more than this run may use (\(Self.describe(limit))); make the frames smaller (--width, --crop) or fewer, or raise --max-memory"
        )
    }

    /// "1.3 GB", "512 MB" (powers of 1000, one decimal below 10).
    public static func describe(_ bytes: Int) -> String {
        let units: [(Double, String)] = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        for (size, unit) in units where Double(bytes) >= size {
            let value = Double(bytes) / size
            return value < 10 ? "\(cFormat("%.1f", value)) \(unit)" : "\(Int(value.rounded())) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
