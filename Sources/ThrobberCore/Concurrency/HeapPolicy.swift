import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How glibc serves large blocks, chosen per workload. The policy is the
/// process's, so the program sets it, not the library: the command line
/// calls ``install(_:)`` once at start, and from then on an encoder's
/// ``request(_:)`` for the work it is doing takes effect. In a process that
/// never installs one (a library user's), requests change nothing and glibc
/// keeps its own policy, so two encodes in one process never race over it.
/// Swift's Glibc module leaves out <malloc.h>, so `mallopt` is called
/// through `dlsym`; on other C libraries this does nothing.
package enum HeapPolicy: Int, Sendable {
    /// Frames stream through the encoders in blocks of the same few sizes,
    /// from several threads. glibc serves blocks that large from its heaps
    /// once the first has been freed (its mmap threshold adapts upwards),
    /// and those heaps then fragment: peak memory crept up with the number
    /// of frames (150 frames of 640x360: 48–55 MB, 600: 59–68 MB). A fixed
    /// threshold of 512 KiB maps and unmaps each such block instead, so
    /// memory stays flat (47–52 MB for both) for 5–20 % more time
    /// (docs/tuning.md, "Peak memory over frame count"). The command line
    /// starts with this.
    case streaming = 1
    /// libwebp allocates the same tables again for every rectangle it
    /// tries (a 1 MiB hash table each time, histogram sets of several MiB
    /// on 320x240 frames), many times a frame. Mapped afresh, each costs
    /// its page faults again: a 64x64 loader spent 0.4 s of its 0.6 s in
    /// the kernel. Kept in the heap (blocks up to 8 MiB, 16 MiB left
    /// untrimmed), the same file took 0.2 s, and the 320x240 corpora
    /// 10–15 % less time, for a few MiB more. Higher thresholds gain little
    /// more and on large frames let the heaps fragment (four 2048x2048
    /// frames: 551 MB became 825 MB at 32 MiB), so WebP uses this only on
    /// frames up to 512x512, where a frame's coding is short and those
    /// tables are most of its memory traffic.
    case reuse = 2
    /// libimagequant allocates several frame-sized blocks per frame (its
    /// float copy of a 1280x720 frame is 14.7 MB), and the GIF writer's
    /// candidates as many again. Mapped afresh under `streaming`, their
    /// page faults were 12 % of a 1280x720 encode's CPU time (0.85 s of
    /// 6.9 s in the kernel). A fixed threshold of 32 MiB (the largest glibc
    /// takes) keeps them in the heaps: 0.1 s in the kernel, and peak memory
    /// still flat over the frame count (600 frames of 640x360 within 1.07×
    /// of 150), at 20–45 % more of it (docs/tuning.md, "Peak memory over
    /// frame count"). GIF uses this while it quantizes.
    case quantizing = 3

    private static let current = Atomic<Int>(0)
    private static let installed = Atomic<Bool>(false)

    /// Makes `policy` the one in force, and lets encoders' requests change
    /// it from now on. For the program's start, before any encode.
    package static func install(_ policy: HeapPolicy) {
        installed.store(true, ordering: .relaxed)
        apply(policy)
    }

    /// An encoder's request for `policy` while it does the work `policy`
    /// is for; returns the policy to restore after (pass it back here), or
    /// nil when there is none to restore: nothing changes unless the
    /// program installed a policy.
    package static func request(_ policy: HeapPolicy) -> HeapPolicy? {
        guard installed.load(ordering: .relaxed) else { return nil }
        return apply(policy)
    }

    /// Makes `policy` the one in force and returns the one before (nil: the
    /// C library's own).
    @discardableResult
    private static func apply(_ policy: HeapPolicy) -> HeapPolicy? {
        let before = HeapPolicy(rawValue: current.exchange(policy.rawValue, ordering: .relaxed))
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let trimThreshold: Int32 = -1
            let mmapThreshold: Int32 = -3
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return before }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            switch policy {
            case .streaming:
                _ = mallopt(mmapThreshold, 512 << 10)
                _ = mallopt(trimThreshold, 128 << 10)
            case .reuse:
                _ = mallopt(mmapThreshold, 8 << 20)
                _ = mallopt(trimThreshold, 16 << 20)
            case .quantizing:
                _ = mallopt(mmapThreshold, 32 << 20)
                _ = mallopt(trimThreshold, 128 << 20)
            }
        #endif
        return before
    }
}
