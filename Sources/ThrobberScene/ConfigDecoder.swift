import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Reads a config file into a `SceneConfig`, validating everything before
/// any drawing: unknown keys, types, ranges, colors, easings, paths.
public enum ConfigDecoder {
    /// Largest canvas side in pixels.
    public static let maxCanvasPixels = 4096
    /// Largest config file read, in bytes (4 MiB: some 60,000 layers). A
    /// config this large is read and checked in well under a second.
    public static let maxConfigBytes = 4 << 20

    /// Reads and validates the config file at `file`; relative paths inside
    /// it are resolved against the file's folder, and images it names are
    /// decoded now.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the file and the JSON path
    /// for anything invalid (`dots.json: layers[0].fill: …`),
    /// ``ThrobberError/Kind/noInput`` when the file or an image it names is
    /// missing.
    public static func load(file: String) throws -> SceneConfig {
        var st = stat()
        if stat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size > off_t(maxConfigBytes) {
            throw tooLarge(file, Int(st.st_size))
        }
        let bytes = try FileBytes.read(file)
        return try decode(bytes, file: file, baseDirectory: PathText.parent(file))
    }

    /// Validates a config held in memory: `file` names the config in
    /// messages; relative paths inside it are resolved against
    /// `baseDirectory`. Throws as ``load(file:)`` does.
    public static func decode(_ bytes: [UInt8], file: String, baseDirectory: String) throws -> SceneConfig {
        guard bytes.count <= maxConfigBytes else { throw tooLarge(file, bytes.count) }
        let lottieHint = "not a Throbber config: use `throbber encode \(file) -o OUT.gif`"
        if let packed = LottieFile.packing(of: bytes, name: file) {
            // A .lottie archive or a .tgs sticker: a Lottie file in another form.
            throw ThrobberError(
                .data,
                packed.isLottie
                    ? "\(file) is a Lottie file, \(lottieHint)"
                    : "\(file) is \(packed.form), not a Throbber config (a config is JSON text)")
        }
        let root = try JSONParser.parse(bytes, file: file)
        if LottieFile.kind(of: root) == .lottie {
            throw ThrobberError(.data, "\(file) is a Lottie file, \(lottieHint)")
        }
        let r = ConfigReader(file: file)
        let top = try r.object(root, "")
        let version = try top.required("version") { try r.integer($0, $1, in: 1...Int.max) }
        guard version == 1 else {
            throw r.error("version", "unsupported version \(version); this Throbber reads version 1")
        }

        let base = baseDirectory.isEmpty ? "." : baseDirectory
        func resolve(_ path: String) -> String { path.hasPrefix("/") ? path : base + "/" + path }

        let timing = try readTiming(top, r)
        let theme = try top.optional("theme") { try SceneTheme.read($0, $1, r) } ?? SceneTheme()
        let (canvas, canvasKeys) = try readCanvas(top, r, theme: theme)
        var layerReader = LayerReader(r: r, step: timing.step, theme: theme, resolve: resolve)
        layerReader.base = base
        let content = try readContent(top, r, canvas: canvas, canvasKeys: canvasKeys, layerReader: layerReader)

        var config = SceneConfig(file: file, canvas: canvas, timing: timing, content: content)
        config.theme = theme
        try readPresentation(top, r, into: &config)
        config.loop = try top.optional("loop") { try r.integer($0, $1, in: 0...65535) } ?? 0
        config.bounce = try top.optional("bounce", r.bool) ?? false
        config.duplicate =
            try top.optional("duplicate") { node, path in
                if case .array(let items) = node.value {
                    guard !items.isEmpty else { throw r.error(path, "expected at least one count") }
                    return .perFrame(try items.enumerated().map { try r.integer($1, "\(path)[\($0)]", in: 1...1000) })
                }
                return .every(try r.integer(node, path, in: 1...1000))
            } ?? .every(1)
        config.encode = try readEncode(top, r)
        config.outputs = try readOutputs(top, r, resolve: resolve)
        try top.finish(allowed: [
            "version", "canvas", "timing", "loop", "bounce", "duplicate", "layers", "frames", "encode", "output",
            "theme", "title", "motion",
        ])
        return config
    }

    /// The `timing` object of the config `top`.
    private static func readTiming(_ top: ConfigReader.Object, _ r: ConfigReader) throws -> SceneConfig.Timing {
        var timing = SceneConfig.Timing()
        try top.optional("timing") { node, path in
            let o = try r.object(node, path)
            timing.fps =
                try o.optional("fps") { try r.number($0, $1, above: Rational(0), atMost: Rational(1000)) } ?? timing.fps
            let seconds = ConfigRange.seconds
            timing.step =
                try o.optional("step") { try r.number($0, $1, above: Rational(0), atMost: seconds) } ?? timing.step
            timing.duration = try o.optional("duration") { try r.number($0, $1, above: Rational(0), atMost: seconds) }
            timing.start = try o.optional("start") { try r.number($0, $1, atLeast: Rational(0), atMost: seconds) }
            timing.speed =
                try o.optional("speed") { node, path in
                    let v = try r.number(node, path, above: Rational(0), atMost: maxSpeed)
                    guard v.denominator <= 1000 else {
                        throw r.error(path, "\(v) has more than 3 decimals; use a speed like 1.5, 0.125 or \"2/3\"")
                    }
                    return v
                } ?? timing.speed
            try o.finish(allowed: ["fps", "step", "duration", "start", "speed"])
        }
        return timing
    }

    /// The `canvas` object of the config `top`, and the keys it gives.
    private static func readCanvas(_ top: ConfigReader.Object, _ r: ConfigReader, theme: SceneTheme) throws -> (
        SceneConfig.Canvas, [String]
    ) {
        var canvas = SceneConfig.Canvas()
        var canvasKeys: [String] = []
        try top.optional("canvas") { node, path in
            let o = try r.object(node, path)
            canvasKeys = o.members.map(\.key)
            let most = Rational(maxCanvasPixels)
            canvas.width = try o.optional("width") { try r.number($0, $1, above: Rational(0), atMost: most) }
            canvas.height = try o.optional("height") { try r.number($0, $1, above: Rational(0), atMost: most) }
            canvas.scale = try o.optional("scale") { try r.integer($0, $1, in: 1...16) } ?? 1
            if let (color, name) = try o.optional("background", { try theme.paint($0, $1, r) }) {
                (canvas.background, canvas.backgroundName) = (color, name)
            }
            try o.finish(allowed: ["width", "height", "scale", "background"])
        }
        return (canvas, canvasKeys)
    }

    /// The `layers` (drawn on `canvas`, read by `layerReader`) or the
    /// `frames` of the config `top`; `canvasKeys` are the keys its canvas gives.
    private static func readContent(
        _ top: ConfigReader.Object, _ r: ConfigReader, canvas: SceneConfig.Canvas, canvasKeys: [String],
        layerReader: LayerReader
    ) throws -> SceneConfig.Content {
        let resolve = layerReader.resolve
        switch (top.has("layers"), top.has("frames")) {
        case (true, true): throw r.error("frames", "a config has either \"layers\" or \"frames\", not both")
        case (false, false): throw r.error("", "missing \"layers\" (a scene to draw) or \"frames\" (a frame folder)")
        case (true, false):
            for (key, v) in [("width", canvas.width), ("height", canvas.height)] where v == nil {
                throw r.error("canvas", "missing required key \"\(key)\" (a scene needs a canvas size in points)")
            }
            for (key, v) in [("width", canvas.width!), ("height", canvas.height!)] {
                let px = v * Rational(canvas.scale)
                guard px.denominator == 1 else {
                    throw r.error(
                        "canvas.\(key)", "\(v) points × scale \(canvas.scale) is not a whole number of pixels")
                }
                guard px.numerator <= Int64(maxCanvasPixels) else {
                    throw r.error("canvas.\(key)", "\(px) pixels is larger than the \(maxCanvasPixels) pixel limit")
                }
            }
            return .layers(
                try top.required("layers") { node, path in
                    let items = try r.array(node, path)
                    guard !items.isEmpty else { throw r.error(path, "expected at least one layer") }
                    let layers = try items.enumerated().map { try layerReader.layer($1, "\(path)[\($0)]") }
                    try SceneBudget.check(layers, path: path, canvasScale: Double(canvas.scale), reader: r)
                    return layers
                })
        case (false, true):
            for key in ["width", "height", "scale"] where canvasKeys.contains(key) {
                throw r.error("canvas.\(key)", "a frames config takes its size from the frames; remove this key")
            }
            return .frames(
                try top.required("frames") { node, path in
                    let o = try r.object(node, path)
                    var f = SceneConfig.Frames(dir: resolve(try o.required("dir", r.string)))
                    f.glob = try o.optional("glob", r.string)
                    f.sort =
                        try o.optional("sort") { node, path in
                            FrameSort(rawValue: try r.choice(node, path, among: FrameSort.allCases.map(\.rawValue)))!
                        } ?? .natural
                    f.delays = try o.optional("delays") { node, path in
                        try r.array(node, path).enumerated().map { try r.integer($1, "\(path)[\($0)]", in: 1...65535) }
                    }
                    try o.finish(allowed: ["dir", "glob", "sort", "delays"])
                    return f
                })
        }
    }

    /// The `encode` object of the config `top`.
    private static func readEncode(_ top: ConfigReader.Object, _ r: ConfigReader) throws -> SceneConfig.Encode {
        try top.optional("encode") { node, path in
            let o = try r.object(node, path)
            var e = SceneConfig.Encode()
            e.quality = try o.optional("quality") { try r.integer($0, $1, in: 1...100) }
            e.dither =
                try o.optional("dither") {
                    try r.number($0, $1, atLeast: Rational(0), atMost: Rational(1)).doubleValue
                } ?? 1
            e.colors = try o.optional("colors") { try r.integer($0, $1, in: 2...256) }
            e.matte = try o.optional("matte", r.color)
            e.lossy = try o.optional("lossy") { try r.integer($0, $1, in: 0...200) } ?? 0
            try o.finish(allowed: ["quality", "dither", "colors", "matte", "lossy"])
            return e
        } ?? SceneConfig.Encode()
    }

    /// The `output` list of the config `top`; `resolve` makes its paths
    /// absolute.
    private static func readOutputs(
        _ top: ConfigReader.Object, _ r: ConfigReader, resolve: (String) -> String
    ) throws -> [SceneConfig.Output] {
        try top.optional("output") { node, path in
            try r.array(node, path).enumerated().map { i, item in
                let o = try r.object(item, "\(path)[\(i)]")
                let p = try o.required("path", r.string)
                let format = try o.optional("format") { node, path in
                    try r.choice(
                        node, path,
                        among: AnimationFormat.allCases.map(\.rawValue) + VectorFormat.allCases.map(\.rawValue))
                }
                try o.finish(allowed: ["path", "format"])
                return SceneConfig.Output(path: resolve(p), format: format)
            }
        } ?? []
    }

    /// Largest `timing.speed`; `preset --speed` has the same bound.
    public static let maxSpeed = Rational(100)

    private static func tooLarge(_ file: String, _ size: Int) -> ThrobberError {
        ThrobberError(.data, "\(file): \(size) bytes, larger than a config may be (\(maxConfigBytes >> 20) MiB)")
    }
}
