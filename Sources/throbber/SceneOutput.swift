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
    /// The output options given, over the config's own values.
    var options: OutputOptions

    /// `own` names the options the command gives a meaning of its own
    /// (`preset --scale`), which are not output options there.
    init(_ args: Arguments, base: BaseFolder, own: Set<String> = []) throws {
        if let o = args.string("output").map(base.resolve) {
            target = (o, try OutputFormat.resolve(output: o, format: args.string("format")))
        }
        compression = try OutputFormat.compression(args)
        jobs = try args.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        memory = try args.memoryBudget()
        quiet = args.flag("quiet")
        printHash = args.flag("sha256")
        options = try OutputOptions(args, except: own)
        if let speed = options.speed { try EncodeSettings.check(speed: speed) }
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
        var config = config
        try options.apply(to: &config)
        for t in targets { try options.refuseUnused(for: t.format, colors: config.encode.colors) }
        var job = try SceneJob(
            config: config, jobs: jobs, speed: options.speed ?? Rational(1), frames: options.transform.frames,
            reverse: options.transform.reverse, memory: memory)
        options.apply(to: &job.settings, scene: true)
        job.overridden = options.fields
        let budgetLabel = options.maxBytesText.map { "--max-bytes \($0)" }
        for t in targets {
            try Output.write(
                to: t.path, label: "rendering", quiet: quiet, printHash: printHash, budgetLabel: budgetLabel,
                bar: { [compression] out, bar in
                    try job.encode(
                        to: out, format: t.format, compression: compression, progress: bar.update, passes: bar.pass)
                })
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
