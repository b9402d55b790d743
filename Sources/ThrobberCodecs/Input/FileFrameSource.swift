import FoundationEssentials
import Glibc
import ThrobberCore

/// Frames read from image files. A still image is one frame; an animated
/// GIF, APNG or WebP contributes all its frames, composited as a viewer
/// shows them, with their own durations.
public struct FileFrameSource: FrameSource {
    /// The image files, in the order their frames are shown.
    public let files: [String]
    /// Composited under every frame (a frames config's canvas background).
    public let background: Color
    private let entries: [(file: Int, frame: Int?)]
    private let animations: [Int: DecodedAnimation]
    /// For an animation that kept only some frames: where each kept frame
    /// (by its number in the file) is in its ``DecodedAnimation/frames``.
    private let kept: [Int: [Int: Int]]
    private let probes: [ImageProbe]
    /// Bytes of the decoded animations, held for the whole run.
    public let residentBytes: Int
    /// What a still's decoder may use for itself (the run's budget).
    private let memoryLimit: Int?

    /// Reads every file's headers first (sizes, frame counts), then
    /// decodes the animated files (so their errors come first); stills are
    /// decoded when asked for. An animation whose canvas is over the
    /// decoding limits, or whose frames decoded would be over
    /// ``DecodedAnimation/maxTotalBytes``, is refused from its header
    /// whatever the budget; with a `budget`, animations that would not fit
    /// in it decoded are refused before any is decoded.
    ///
    /// With `selection` (the frames a run will use, numbered across all
    /// the files as ``count`` numbers them), an animated WebP keeps only
    /// the frames selected, and only those count: other frames must not be
    /// asked for. (GIF and APNG keep every frame.)
    ///
    /// Throws, naming the file: ``ThrobberError/Kind/noInput`` when a file
    /// is missing or cannot be opened, ``ThrobberError/Kind/data`` for a
    /// folder, an animation that cannot be decoded, or animations over the
    /// limits or the budget, ``ThrobberError/Kind/io`` when a read fails.
    public init(
        files: [String], background: Color = .transparent, budget: MemoryBudget? = nil,
        selection: FrameSelection? = nil
    ) throws {
        let probes = try files.map { try ImageProbe.probe($0) }
        let picks = Self.picks(probes, selection: selection)
        var total = 0
        for (i, (file, probe)) in zip(files, probes).enumerated() where probe.animated {
            guard let size = probe.size else { continue }
            try DecodedAnimation.checkCanvas(size.width, size.height, name: file)
            let frames = picks[i]?.count ?? probe.frames
            try DecodedAnimation.checkTotal(
                frames: frames, of: probe.frames, size, name: file,
                canPick: DecodedAnimation.keepsSelected(probe.format))
            let bytes = FrameSize.product(frames, size.rgbaBytes)
            total = total.addingReportingOverflow(bytes).overflow ? .max : total + bytes
            let which = frames == probe.frames ? "\(frames) frames" : "\(frames) of its \(probe.frames) frames"
            try budget?.check(
                total, for: "\(file) (\(which) of \(size)\(files.count > 1 ? ", with the animations before it" : ""))")
        }
        var entries: [(Int, Int?)] = []
        var animations: [Int: DecodedAnimation] = [:]
        var kept: [Int: [Int: Int]] = [:]
        var resident = 0
        for (i, file) in files.enumerated() {
            let pick = picks[i]
            if probes[i].animated,
                let a = try DecodedAnimation.decode(
                    try FileBytes.read(file), name: file, keep: pick.map { p in { p.contains($0) } })
            {
                if let pick {
                    kept[i] = Dictionary(uniqueKeysWithValues: pick.sorted().enumerated().map { ($1, $0) })
                }
                animations[i] = a
                entries += (pick == nil ? a.frames.indices : a.stored.indices).map { (i, $0) }
                resident += FrameSize.product(a.frames.count, FrameSize(width: a.width, height: a.height).rgbaBytes)
                continue
            }
            entries.append((i, nil))
        }
        // Frames were picked by the headers' counts: when a file holds
        // another count, read everything again, keeping every frame.
        if !picks.isEmpty {
            var held = [Int](repeating: 0, count: files.count)
            for e in entries { held[e.0] += 1 }
            guard held == probes.map({ $0.animated ? $0.frames : 1 }) else {
                self = try FileFrameSource(files: files, background: background, budget: budget)
                return
            }
        }
        self.files = files
        self.background = background
        self.entries = entries
        self.animations = animations
        self.kept = kept
        self.probes = probes
        self.residentBytes = resident
        self.memoryLimit = budget?.limit
    }

    /// For each animated WebP (by file index), the frames of it that
    /// `selection` picks, numbering frames across the files by their
    /// headers' counts; none when there is no selection or it picks no
    /// frame (the run will say why).
    private static func picks(_ probes: [ImageProbe], selection: FrameSelection?) -> [Int: Set<Int>] {
        guard let selection else { return [:] }
        let counts = probes.map { $0.animated ? $0.frames : 1 }
        let total = counts.reduce(0) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 }
        guard let indices = try? selection.indices(count: total) else { return [:] }
        var starts: [Int] = []
        var start = 0
        for count in counts {
            starts.append(start)
            start += count
        }
        var picks: [Int: Set<Int>] = [:]
        for (i, probe) in probes.enumerated()
        where probe.animated && DecodedAnimation.keepsSelected(probe.format) {
            picks[i] = []
        }
        for index in indices {
            // The file whose frames include `index`: the last that starts at or before it.
            var lo = 0
            var hi = starts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= index { lo = mid } else { hi = mid - 1 }
            }
            picks[lo]?.insert(index - starts[lo])
        }
        return picks
    }

    /// Frames in all: one per still file, plus every frame of each animation.
    public var count: Int { entries.count }

    /// The file name, followed by " frame N" (1-based) for a frame of an
    /// animation.
    public func name(at index: Int) -> String {
        let e = entries[index]
        return e.frame.map { "\(files[e.file]) frame \($0 + 1)" } ?? files[e.file]
    }

    /// Frame `index`: a still (PNG, CgBI PNG or JPEG) decoded from its
    /// file now, or a composited frame of an animation read by `init`;
    /// drawn over ``background`` when that is not fully transparent.
    /// Throws a ``ThrobberError`` naming the file when it cannot be read or
    /// decoded.
    public func frame(at index: Int) throws -> RGBAImage {
        let e = entries[index]
        let image: RGBAImage
        if let frame = e.frame {
            guard let position = kept[e.file].map({ $0[frame] }) ?? frame else {
                throw ThrobberError(.software, "\(name(at: index)): the frame was not kept when the file was read")
            }
            image = animations[e.file]!.frames[position]
        } else {
            image = try ImageDecoder.decode(fileAt: files[e.file], memoryLimit: memoryLimit)
        }
        return image.over(background: background)
    }

    /// The frame's duration from its animation file, in seconds; nil for a
    /// still (it lasts the timeline's frame duration).
    public func duration(at index: Int) -> Rational? {
        let e = entries[index]
        return e.frame.map { animations[e.file]!.durations[$0] }
    }

    /// The size the file's header gives (an animation's canvas); nil when
    /// the header does not tell.
    public func knownSize(at index: Int) -> FrameSize? {
        let e = entries[index]
        if let a = animations[e.file] { return FrameSize(width: a.width, height: a.height) }
        return probes[e.file].size
    }

    /// The loop count of the input when it is a single animation.
    public var inputLoop: Int? {
        files.count == 1 ? animations[0]?.loop : nil
    }
}
