import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// What making one vector file costs, counted while its scene and its text
/// are made: the keys of animated values made, the file's bytes and the
/// memory held. A config whose file would pass a limit is refused, naming
/// the JSON path of the layer where the count passes it, before anything
/// is written; big pieces (a value laid over the loop, a value sampled at
/// every frame) are counted before they are made. The constants' measurements
/// are in docs/tuning.md, "Vector export: what a file costs".
final class VectorMeter {
    /// Largest vector file written. A loader's file is kilobytes; this
    /// holds 45 pictures of the 1 MiB each may embed, and players read a
    /// file whole before they show its first frame.
    static let maxFileBytes = 64 << 20
    /// Most keys made for one file: every key of every copy's animated
    /// values, again where a value is laid over the loop (Lottie), played
    /// back and forth (`bounce`) or sampled at the frames. A loader makes
    /// hundreds; Lottie takes about 2.5 µs a key, so this bounds the time
    /// to make a file to 2–3 s.
    static let maxKeys = 1_000_000
    /// Memory a node of the scene holds: its chain of transforms, its
    /// path and its share of the arrays (480 to 700 bytes measured).
    static let nodeBytes = 1024
    /// Memory a key holds while its Lottie layer is made, before the
    /// layer is written out as text: its JSON objects (500 bytes measured).
    static let treeBytesPerKey = 640
    /// Memory a byte of an embedded Lottie file's JSON text takes while it
    /// is read and copied as objects (11 bytes measured on 1.5 MB).
    static let jsonObjectsPerByte = 16
    /// Memory the program holds before any vector file is made (16 MB
    /// measured for an empty scene).
    static let baseBytes = 32 << 20

    /// The config, and the format made, for messages.
    let file: String
    let format: String
    let budget: MemoryBudget
    /// Copies of the file's text held at the end: as it is made and as it
    /// is written out; a dotLottie archive also holds its deflated copy and
    /// the archive as it is put together.
    let copies: Int
    /// Keys made, and bytes of the file made, so far.
    private(set) var keys = 0
    private(set) var bytes = 0
    /// Memory the scene's nodes and keys hold.
    private var held = 0
    /// Memory held until the layer being made is written out as text.
    private var layer = 0

    init(file: String, format: VectorFormat, budget: MemoryBudget) {
        self.file = file
        self.format = format == .svg ? "SVG" : "Lottie"
        self.budget = budget
        copies = format == .dotLottie ? 4 : 2
    }

    /// Counts a node of the scene, made for the layer at `path`.
    func node(at path: String) throws {
        held += VectorMeter.nodeBytes
        try check(path)
    }

    /// Counts `count` keys about to be made for the layer at `path`;
    /// `tree` when each is held as JSON objects until the layer is written.
    func keys(_ count: Int, at path: String, tree: Bool = false) throws {
        // Saturated, so that the sums below cannot overflow: the first
        // count over the limit throws.
        let count = min(max(0, count), Int.max >> 12)
        keys += count
        held += count * MemoryLayout<VectorTrack.Key>.stride
        if tree { layer += count * VectorMeter.treeBytesPerKey }
        try check(path)
    }

    /// Checks, before any is made, that `count` more keys would stay
    /// within ``maxKeys``, naming the layer at `path` when not.
    func expect(keys count: Int, at path: String) throws {
        guard keys + min(max(0, count), Int.max >> 12) > VectorMeter.maxKeys else { return }
        throw keysError(path)
    }

    /// The file has `total` bytes now that the layer at `path` is written
    /// out as text: what the layer held as objects is free again.
    func written(_ total: Int, at path: String) throws {
        bytes = max(bytes, total)
        layer = 0
        try check(path)
    }

    /// Memory `count` bytes of JSON text hold as objects while they are
    /// read and copied (a Lottie layer's file, embedded).
    func parsing(_ count: Int, at path: String) throws {
        layer += min(max(0, count), Int.max >> 12) * VectorMeter.jsonObjectsPerByte
        try check(path)
    }

    private func keysError(_ path: String) -> ThrobberError {
        ThrobberError(
            .data,
            "\(file): \(path): the \(format) file needs more than \(VectorMeter.maxKeys) keyframes (every copy's animated values, laid over the loop); use fewer copies, keys or steps, or render to GIF, APNG or WebP"
        )
    }

    private func check(_ path: String) throws {
        let layer = "\(file): \(path)"
        let fix = "or render to GIF, APNG or WebP"
        guard keys <= VectorMeter.maxKeys else { throw keysError(path) }
        guard bytes <= VectorMeter.maxFileBytes else {
            throw ThrobberError(
                .data,
                "\(layer): the \(format) file would be larger than \(VectorMeter.maxFileBytes >> 20) MiB (\(bytes) bytes by this layer); use fewer copies, keys or pictures, \(fix)"
            )
        }
        let needs = VectorMeter.baseBytes + held + self.layer + copies * bytes
        guard needs <= budget.limit else {
            throw ThrobberError(
                .data,
                "\(layer): making the \(format) file needs about \(MemoryBudget.describe(needs)) of memory, more than this run may use (\(MemoryBudget.describe(budget.limit))); use fewer copies or keys, raise --max-memory, \(fix)"
            )
        }
    }
}
