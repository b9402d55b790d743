import FoundationEssentials
import Glibc
import ThrobberKit

/// Where and how a config — a rendered file or a preset — is encoded: the
/// output options that `render` and `preset` share, checked and resolved.
struct SceneOutput {
    /// `-o` with its format; nil: every entry of the config's "output" list.
    var target: (path: String, format: AnimationFormat)?
    var compression: EncodeSettings.Compression
    var jobs: Int
    /// `--max-memory`; nil: the machine's default.
    var memory: MemoryBudget?
    var quiet: Bool
    var printHash: Bool
    /// Timeline speed (`render --speed`); presets redesign their timing instead.
    var speed = Rational(1)
    var reverse: Bool
    /// `--poster-frame`: the frame of the loop shown first.
    var posterFrame: Int?

    /// With `speed`, `--speed` speeds up the rendered timeline.
    init(_ args: Arguments, base: BaseFolder, speed readsSpeed: Bool = false) throws {
        if let o = args.string("output").map(base.resolve) {
            target = (o, try OutputFormat.resolve(output: o, format: args.string("format")))
        }
        compression = try OutputFormat.compression(args)
        jobs = try args.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        memory = try args.memoryBudget()
        quiet = args.flag("quiet")
        printHash = args.flag("sha256")
        reverse = args.flag("reverse")
        posterFrame = try args.int("poster-frame")
        if readsSpeed, let speed = try args.rational("speed") {
            try EncodeSettings.check(speed: speed)
            self.speed = speed
        }
    }

    /// Refuses `-o` when it is one of `inputs` (``FrameList/refuseOutput(_:among:)``).
    func refuseInputs(_ inputs: [String]) throws {
        if let target { try FrameList().refuseOutput(target.path, among: inputs) }
    }

    /// Encodes `config` to `-o` or to every entry of its `output` list.
    /// No output may be the config itself, a file one of its layers reads,
    /// or a frame its frames folder would pick: those are refused before
    /// anything is written.
    func write(_ config: SceneConfig) throws {
        var targets: [(path: String, format: AnimationFormat)] = []
        if let target {
            targets = [target]
        } else {
            guard !config.outputs.isEmpty else {
                throw ThrobberError(.usage, "no output: give -o OUT.gif or an \"output\" list in \(config.file)")
            }
            targets = try config.outputs.map { ($0.path, try OutputFormat.resolve(output: $0.path, format: $0.format)) }
        }
        for t in targets {
            try FrameList().refuseOutput(t.path, among: [config.file] + Self.layerFiles(config))
            if case .frames(let f) = config.content {
                try FrameList(sort: f.sort, glob: f.glob).refuseOutput(t.path, among: [f.dir])
            }
        }
        let job = try SceneJob(config: config, jobs: jobs, speed: speed, reverse: reverse, memory: memory)
        for t in targets {
            try Output.write(to: t.path, label: "rendering", quiet: quiet, printHash: printHash) {
                [compression, posterFrame] out, progress in
                try job.encode(
                    to: out, format: t.format, compression: compression, posterFrame: posterFrame, progress: progress)
            }
        }
    }

    /// The files that the layers of `config` read (images, Lottie files),
    /// groups included.
    static func layerFiles(_ config: SceneConfig) -> [String] {
        guard case .layers(let layers) = config.content else { return [] }
        func files(_ layers: [Layer]) -> [String] {
            layers.flatMap { layer -> [String] in
                switch layer.kind {
                case .image(let image): [image.path]
                case .lottie(let lottie): [lottie.path]
                case .group(let children): files(children)
                default: []
                }
            }
        }
        return files(layers)
    }
}
