import FoundationEssentials
import Glibc
import ThrobberCore

/// Frames read from image files. A still image is one frame; an animated
/// GIF or APNG contributes all its frames, composited as a viewer shows
/// them, with their own durations.
public struct FileFrameSource: FrameSource {
    /// The image files, in the order their frames are shown.
    public let files: [String]
    /// Composited under every frame (a frames config's canvas background).
    public let background: Color
    private let entries: [(file: Int, frame: Int?)]
    private let animations: [Int: DecodedAnimation]
    private let probes: [ImageProbe]
    /// Bytes of the decoded animations, held for the whole run.
    public let residentBytes: Int
    /// What a still's decoder may use for itself (the run's budget).
    private let memoryLimit: Int?

    /// Reads every file's headers first (sizes, frame counts), then
    /// decodes the animated files (so their errors come first); stills are
    /// decoded when asked for. With a `budget`, animations that would not
    /// fit in it decoded are refused before any is decoded.
    ///
    /// Throws, naming the file: ``ThrobberError/Kind/noInput`` when a file
    /// is missing or cannot be opened, ``ThrobberError/Kind/data`` for a
    /// folder, an animation that cannot be decoded, or animations over the
    /// budget, ``ThrobberError/Kind/io`` when a read fails.
    public init(files: [String], background: Color = .transparent, budget: MemoryBudget? = nil) throws {
        self.files = files
        self.background = background
        let probes = try files.map { try ImageProbe.probe($0) }
        if let budget {
            var total = 0
            for (file, probe) in zip(files, probes) where probe.animated {
                total = total.addingReportingOverflow(probe.decodedBytes).overflow ? .max : total + probe.decodedBytes
                let frames = probe.size.map { "\(probe.frames) frames of \($0)" } ?? "\(probe.frames) frames"
                try budget.check(
                    total, for: "\(file) (\(frames)\(files.count > 1 ? ", with the animations before it" : ""))")
            }
        }
        var entries: [(Int, Int?)] = []
        var animations: [Int: DecodedAnimation] = [:]
        var resident = 0
        for (i, file) in files.enumerated() {
            if probes[i].animated, let a = try DecodedAnimation.decode(try FileBytes.read(file), name: file) {
                animations[i] = a
                entries += a.frames.indices.map { (i, $0) }
                resident += a.frames.count * a.width * a.height * 4
                continue
            }
            entries.append((i, nil))
        }
        self.entries = entries
        self.animations = animations
        self.probes = probes
        self.residentBytes = resident
        self.memoryLimit = budget?.limit
    }

    /// Frames in all: one per still file, plus every frame of each animation.
    public var count: Int { entries.count }

    /// The file name, followed by " frame N" for a frame of an animation.
    public func name(at index: Int) -> String {
        let e = entries[index]
        return e.frame.map { "\(files[e.file]) frame \($0)" } ?? files[e.file]
    }

    /// Frame `index`: a still (PNG, CgBI PNG or JPEG) decoded from its
    /// file now, or a composited frame of an animation read by `init`;
    /// drawn over ``background`` when that is not fully transparent.
    /// Throws a ``ThrobberError`` naming the file when it cannot be read or
    /// decoded.
    public func frame(at index: Int) throws -> RGBAImage {
        let e = entries[index]
        let image =
            try e.frame.map { animations[e.file]!.frames[$0] }
            ?? ImageDecoder.decode(fileAt: files[e.file], memoryLimit: memoryLimit)
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
