import FoundationEssentials
import Glibc
import ThrobberKit

/// Where and how a config — a rendered file or a preset — is written: the
/// output options that `render` and `preset` share, checked and resolved.
struct SceneOutput {
    /// One file to write and its format.
    typealias Target = (path: String, format: SceneFormat)

    /// `-o` with its format; nil: every entry of the config's "output" list.
    var target: Target?
    var compression: EncodeSettings.Compression
    var jobs: Int
    /// `--max-memory`; nil: the machine's default.
    var memory: MemoryBudget?
    var quiet: Bool
    var printHash: Bool
    /// The output options given, over the config's own values.
    var options: OutputOptions
    /// The options given that only frames have (``rasterOnly``), in help's
    /// order: refused for a vector target.
    var framesOnly: [String]
    /// `--theme`: whose colors are drawn.
    var scheme: SceneTheme.Scheme
    /// `--reduced-motion`: play the config's reduced motion.
    var reducedMotion: Bool

    /// The options that work on frames or their encoding, which a vector
    /// file (the scene itself) has no use for.
    static let rasterOnly: Set<String> =
        Set((OptionSpec.sizeAndQuality + OptionSpec.transforms).map(\.long)).union([
            "matte", "delay", "duplicate", "poster-frame", "compression",
        ])

    /// `own` names the options the command gives a meaning of its own
    /// (`preset --scale`), which are not output options there.
    init(_ args: Arguments, base: BaseFolder, own: Set<String> = []) throws {
        if let o = args.string("output").map(base.resolve) {
            target = (o, try OutputFormat.resolveScene(output: o, format: args.string("format")))
        }
        compression = try OutputFormat.compression(args)
        jobs = try args.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        memory = try args.memoryBudget()
        quiet = args.flag("quiet")
        printHash = args.flag("sha256")
        options = try OutputOptions(args, except: own)
        if let speed = options.speed { try EncodeSettings.check(speed: speed) }
        framesOnly = (OptionSpec.output() + [.compression]).map(\.long).filter {
            Self.rasterOnly.contains($0) && !own.contains($0) && args.flag($0)
        }
        scheme = try args.choice("theme", of: SceneTheme.Scheme.self) ?? .light
        reducedMotion = args.flag("reduced-motion")
    }

    /// Refuses `-o` when it is one of `inputs` (``FrameList/refuseOutput(_:among:)``).
    func refuseInputs(_ inputs: [String]) throws {
        if let target { try FrameList().refuseOutput(target.path, among: inputs) }
    }

    /// Writes `config` to `-o` or to every entry of its `output` list.
    /// No output may be the config itself, a file one of its layers reads,
    /// or a frame its frames folder would pick; no option may go unused by
    /// a target's format; and every vector file is made before any file is
    /// written, so what a vector format cannot say leaves nothing written.
    func write(_ config: SceneConfig) throws {
        let targets = try targets(of: config)
        var config = config.themed(scheme)
        try options.apply(to: &config)
        for t in targets {
            if case .vector(let v) = t.format {
                try refuseFramesOnly(for: v, path: t.path)
                if reducedMotion, case .hold = config.reducedMotion {
                    throw ThrobberError(
                        .usage,
                        "--reduced-motion: \(config.file) holds one still frame under reduced motion, which \(t.path) as \(v.name) cannot be; write the still as .png, .gif or .webp (the \(v.name) file plays it under prefers-reduced-motion without the option)"
                    )
                }
            }
        }
        let vectors = try targets.map { t in
            try t.format.vector.map { try VectorOutput(config: vectorConfig(config), format: $0, memory: memory) }
        }
        let job = try targets.contains { $0.format.vector == nil } ? makeJob(config) : nil
        // Text is drawn from font files: the summary names them.
        let fonts = config.fontFiles.isEmpty ? "" : "; font \(config.fontFiles.joined(separator: ", "))"
        if let job, targets.count > 1 {
            // Every target's settings are checked before the first is written.
            for t in targets { if case .raster(let format) = t.format { try job.validate(for: format) } }
        }
        for (t, vector) in zip(targets, vectors) {
            if let vector {
                try Output.write(vector.bytes, to: t.path, quiet: quiet, printHash: printHash) {
                    vector.summary(path: t.path, bytes: $0) + fonts
                }
            } else if case .raster(let format) = t.format, let job {
                try Output.write(
                    to: t.path, label: "rendering", quiet: quiet, printHash: printHash,
                    budgetLabel: options.maxBytesText.map { "--max-bytes \($0)" }, note: fonts,
                    bar: { [compression] out, bar in
                        try job.encode(
                            to: out, format: format, compression: compression, progress: bar.update, passes: bar.pass)
                    })
            }
        }
    }

    /// `-o`, or the config's `output` list, checked against its inputs.
    private func targets(of config: SceneConfig) throws -> [Target] {
        var targets: [Target] = []
        if let target {
            targets = [target]
        } else {
            guard !config.outputs.isEmpty else {
                throw ThrobberError(.usage, "no output: give -o OUT.gif or an \"output\" list in \(config.file)")
            }
            targets = try config.outputs.map {
                ($0.path, try OutputFormat.resolveScene(output: $0.path, format: $0.format))
            }
        }
        for t in targets {
            try FrameList().refuseOutput(t.path, among: [config.file] + Self.layerFiles(config))
            if case .frames(let f) = config.content {
                try FrameList(sort: f.sort, glob: f.glob).refuseOutput(t.path, among: [f.dir])
            }
        }
        return targets
    }

    /// The frame encoder of `config` (the output options already applied
    /// to it), with the options the config cannot say.
    private func makeJob(_ config: SceneConfig) throws -> SceneJob {
        let speed = options.speed ?? Rational(1)
        var job = try SceneJob(
            config: config, jobs: jobs, speed: speed * reducedSpeed(config), frames: options.transform.frames,
            reverse: options.transform.reverse, memory: memory)
        if reducedMotion, case .hold(let t) = config.reducedMotion { job.hold(at: t / speed) }
        options.apply(to: &job.settings, scene: true)
        job.overridden = options.fields
        return job
    }

    /// `config` as a vector file says it: `--speed` plays the same frames
    /// faster, as it does for frames (the scene's speed and frame rate
    /// both multiplied, so the loop keeps its frames).
    /// `--reduced-motion` slows it as the config's reduced motion does, and
    /// the file has no other motion to reduce.
    private func vectorConfig(_ config: SceneConfig) -> SceneConfig {
        var config = config
        let speed = (options.speed ?? Rational(1)) * reducedSpeed(config)
        if reducedMotion { config.reducedMotion = nil }
        guard speed != Rational(1) else { return config }
        config.timing.speed = config.timing.speed * speed
        config.timing.fps = config.timing.fps * speed
        return config
    }

    /// The factor `--reduced-motion` plays `config` at (1: the same).
    private func reducedSpeed(_ config: SceneConfig) -> Rational {
        guard reducedMotion, case .speed(let f) = config.reducedMotion else { return Rational(1) }
        return f
    }

    /// Refuses the options given that only frames have, for a `format` target at `path`.
    private func refuseFramesOnly(for format: VectorFormat, path: String) throws {
        guard let name = framesOnly.first else { return }
        throw ThrobberError(
            .usage,
            "--\(name) is for GIF, APNG and WebP; \(path == "-" ? "the output" : path) is \(format.name), which draws the scene itself (drop --\(name), or write .gif, .png or .webp)"
        )
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
                case .path(let shape): shape.font.map { [$0] } ?? []
                case .group(let children): files(children)
                default: []
                }
            }
        }
        return files(layers)
    }
}
