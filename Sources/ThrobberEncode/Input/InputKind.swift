import ThrobberCodecs
import ThrobberCore

/// One kind of input an encode reads (frame files, a stream, a video, a
/// Lottie file): how it is recognized, and how it is opened as frames with
/// its own facts. ``InputRegistry`` asks each kind in turn.
public protocol InputKind: Sendable {
    /// What the kind is called in messages ("video", "Lottie file").
    static var name: String { get }
    /// Whether `--from` and `--to` (``InputOptions/from``, ``InputOptions/to``)
    /// can cut this kind by time.
    static var cutsByTime: Bool { get }
    /// Whether this kind reads `inputs`, judged from their names and first
    /// bytes. Reads no more than a probe's worth of any file.
    static func claims(_ inputs: InputPaths) throws -> Bool
    /// Opens `request`'s inputs, which this kind claimed. Reads headers,
    /// and whatever must be decoded whole (a Lottie file, an animated GIF);
    /// frames are decoded when the encoder asks. Throws a ``ThrobberError``
    /// naming the file.
    static func open(_ request: InputRequest) throws -> OpenedInput
}

extension InputKind {
    /// Most kinds have no time to cut.
    public static var cutsByTime: Bool { false }
}

/// The inputs as given (files, folders, `-` for standard input), and the
/// files they list, worked out once when a kind first asks.
public final class InputPaths {
    /// The inputs as given.
    public let given: [String]
    private let list: FrameList
    private var listedFiles: [String]?

    /// `given` inputs whose folders `list` lists.
    public init(_ given: [String], list: FrameList) {
        self.given = given
        self.list = list
    }

    /// The files the inputs name: folders listed, files kept in order.
    /// Throws ``ThrobberError/Kind/noInput`` for a missing input.
    public func listed() throws -> [String] {
        if let listedFiles { return listedFiles }
        let files = try list.files(for: given)
        listedFiles = files
        return files
    }
}

/// What a kind opens: the inputs, the format and settings they are
/// encoded with (as the user gave them; the kind reads, never edits
/// them), and the input options.
public struct InputRequest {
    /// The inputs.
    public var paths: InputPaths
    /// The format written.
    public var format: AnimationFormat
    /// The settings as given.
    public var settings: EncodeSettings
    /// What is asked of the input.
    public var options: InputOptions

    /// A request to open `paths` for encoding to `format`.
    public init(paths: InputPaths, format: AnimationFormat, settings: EncodeSettings, options: InputOptions) {
        self.paths = paths
        self.format = format
        self.settings = settings
        self.options = options
    }
}

/// The kinds of input an encode reads, in the order they are asked: a
/// stream, a video and a Lottie file are recognized by their first bytes,
/// and whatever none claims is read as frame files (still and animated
/// images, and folders of them).
public enum InputRegistry {
    /// Every kind, most particular first; ``FrameFilesInput`` claims
    /// anything and comes last.
    public static let kinds: [any InputKind.Type] = [
        FrameStreamInput.self, VideoInput.self, LottieInput.self, FrameFilesInput.self,
    ]

    /// The kind that reads `inputs`. With `clipTimes` (`--from` or `--to`
    /// given), throws ``ThrobberError/Kind/usage`` as soon as no kind left
    /// to ask can cut by time, before a later kind lists folders.
    public static func kind(of inputs: InputPaths, clipTimes: Bool = false) throws -> any InputKind.Type {
        for (i, kind) in kinds.enumerated() {
            if clipTimes && !kinds[i...].contains(where: { $0.cutsByTime }) { throw clipRefusal(inputs.given) }
            guard try kind.claims(inputs) else { continue }
            if clipTimes && !kind.cutsByTime { throw clipRefusal(inputs.given) }
            return kind
        }
        return FrameFilesInput.self
    }

    /// Opens `inputs` for an encode to `format` with `settings`: finds the
    /// kind that reads them and opens it. Throws
    /// ``ThrobberError/Kind/usage`` when `--from` or `--to` is given for
    /// an input that is no video, and what the kind throws.
    public static func open(
        _ inputs: [String], format: AnimationFormat, settings: EncodeSettings, options: InputOptions = InputOptions()
    ) throws -> OpenedInput {
        let paths = InputPaths(inputs, list: options.list)
        let kind = try kind(of: paths, clipTimes: options.from != nil || options.to != nil)
        return try kind.open(InputRequest(paths: paths, format: format, settings: settings, options: options))
    }

    private static func clipRefusal(_ inputs: [String]) -> ThrobberError {
        let what = inputs == ["-"] ? "standard input" : inputs.joined(separator: " ")
        return ThrobberError(
            .usage,
            "--from and --to cut a video by time, and \(what) \(inputs.count == 1 ? "is" : "are") no video file; --frames picks frames by number"
        )
    }
}
