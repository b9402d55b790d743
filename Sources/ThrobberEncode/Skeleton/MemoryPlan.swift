import ThrobberCodecs
import ThrobberCore

/// How many frames a batch holds, and whether the run fits its memory
/// budget, decided from frame sizes known before decoding (file headers,
/// a config's canvas). Frames of different sizes are refused here too,
/// before any is decoded.
///
/// A run holds what its source keeps decoded (animations); two frames per
/// frame of a batch (one batch is processed while the next is loaded);
/// about seven more across batches (the previous and first frames, the
/// decoder's rows, libimagequant's float copy of the frame being remapped);
/// and, when frames are resized, two input frames per decoding worker.
/// ``estimate(batch:)`` is that sum in output frames of RGBA, measured
/// with `/usr/bin/time` on 2048² and 8192² frames (docs/reliability.md).
/// A batch is cut to keep its frames within ``batchBytes`` and the run
/// within its budget, down to one frame.
struct MemoryPlan {
    /// Frames per batch.
    private(set) var batch: Int
    /// The largest frame, before and after the transform; nil when no size
    /// is known before decoding.
    let input: FrameSize?
    let output: FrameSize?
    /// Bytes held by the source whatever is decoded.
    let resident: Int
    let jobs: Int
    /// Frames the format's coder holds beyond the batches (``FormatEncoder/heldFrames(_:frames:size:)``).
    let held: Int

    /// The most frame bytes a batch may hold before it is cut: big frames
    /// go one or two at a time, small ones in the usual batches.
    static let batchBytes = 256 << 20
    /// The runtime, libraries and the survey's frame cache.
    static let baseBytes = 64 << 20

    /// What needs the memory, for the message when it is too much: the
    /// first frame's name and the sizes, unless the caller says.
    private var label: String?
    /// The name of the first frame whose size is known.
    private var firstName: String?

    /// Checks the sizes of `source` (after `transform`) and the budget;
    /// `held` tells how many output frames the format's own coder holds.
    /// Throws ``ThrobberError/Kind/data`` naming the frame whose size
    /// differs, or with the figures when the run cannot fit `budget`
    /// (said to be for `label` when given).
    init(
        source: FrameSource, transform: FrameTransform?, jobs: Int, budget: MemoryBudget,
        held: (FrameSize?) -> Int = { _ in 0 }, label: String? = nil
    ) throws {
        self.label = label
        self.jobs = max(1, jobs)
        resident = source.residentBytes
        var first: (input: FrameSize, output: FrameSize, name: String)?
        var layouts: [FrameSize: FrameSize] = [:]
        var largest: FrameSize?
        for index in 0..<source.count {
            guard let size = source.knownSize(at: index), size.width > 0, size.height > 0,
                size.width <= ImageDecoder.maxSide, size.height <= ImageDecoder.maxSide
            else { continue }  // decoding will say what is wrong
            let out: FrameSize
            if let known = layouts[size] {
                out = known
            } else {
                let layout = try transform?.layout(inputWidth: size.width, inputHeight: size.height)
                out = layout.map { FrameSize(width: $0.canvasWidth, height: $0.canvasHeight) } ?? size
                layouts[size] = out
            }
            if let first {
                guard out == first.output else {
                    throw ThrobberError(
                        .data,
                        "\(source.name(at: index)): frame is \(size), but \(first.name) is \(first.input); all frames must have the same size"
                    )
                }
            } else {
                first = (size, out, source.name(at: index))
            }
            if size.rgbaBytes > (largest?.rgbaBytes ?? 0) { largest = size }
        }
        input = largest
        output = first?.output
        firstName = first?.name
        self.held = held(first?.output)
        batch = max(4, self.jobs * 2)
        if let output { batch = max(1, min(batch, Self.batchBytes / max(output.rgbaBytes, 1))) }
        // Smaller batches (and so fewer frames decoded at once) when that
        // is what fits; the output is the same for any batch.
        while batch > 1 && estimate(batch: batch) > budget.limit { batch -= 1 }
        try budget.check(estimate(batch: batch), for: describe())
    }

    /// Bytes the run is expected to need at most with `batch` frames per
    /// batch.
    func estimate(batch: Int) -> Int {
        let outBytes = output?.rgbaBytes ?? 0
        let inBytes = input?.rgbaBytes ?? 0
        let frames = FrameSize.product(outBytes, 2 * batch + 7 + held)
        let decoding = input == output ? 0 : FrameSize.product(inBytes, 2 * min(batch, jobs))
        return [Self.baseBytes, resident, frames, decoding].reduce(0) {
            $0.addingReportingOverflow($1).overflow ? .max : $0 + $1
        }
    }

    private func describe() -> String {
        if let label { return label }
        guard let input, let output else { return "the decoded input" }
        let sizes = input == output ? "\(output)" : "\(input) → \(output)"
        return
            "\(firstName.map { "\($0): " } ?? "")encoding frames of \(sizes)\(resident > 0 ? " (with \(MemoryBudget.describe(resident)) of decoded animations)" : "")"
    }
}

extension AnimationEncoder {
    /// Checks, before any frame is read, that frames of `size` (as a
    /// stream's header gives it) can be encoded within the run's memory
    /// budget, after the transform: the least the run will hold (one frame
    /// per batch, the format's own frames for a one-frame animation), which
    /// the check of the whole run after the frames are read can only raise.
    /// Throws ``ThrobberError/Kind/data`` saying it is for `what` when the
    /// frames cannot fit, and the transform's usage errors.
    public func checkMemory(frameSize size: FrameSize, for what: String) throws {
        let (coder, settings) = (format.encoder, settings)
        _ = try MemoryPlan(
            source: HeaderFrame(size: size, what: what),
            transform: settings.transform.changesPixels ? settings.transform : nil, jobs: settings.jobs,
            budget: settings.memory ?? .machineDefault,
            held: { coder.heldFrames(settings, frames: 1, size: $0) }, label: what)
    }
}

/// One frame known only by the size a header gives, for a memory check
/// before any frame is read.
private struct HeaderFrame: FrameSource {
    /// The size the header gives.
    let size: FrameSize
    /// What the header is, for messages.
    let what: String

    var count: Int { 1 }
    func name(at index: Int) -> String { what }
    func knownSize(at index: Int) -> FrameSize? { size }
    /// Never decoded: the plan only asks for sizes.
    func frame(at index: Int) throws -> RGBAImage {
        throw ThrobberError(.software, "\(what): no frame has been read yet")
    }
}
