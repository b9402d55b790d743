import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// The vector forms a config's scene can be written in, beside the frame
/// formats: a Lottie (Bodymovin) animation for apps, as JSON or packed in
/// a dotLottie archive, and an animated SVG for the web. All say the same
/// loop as the frames: frame k of a GIF, APNG or WebP made from the config
/// shows the vector file at its frame k time.
public enum VectorFormat: String, CaseIterable, Sendable {
    /// Lottie JSON: shape, image, precomposition and null layers, keyframes
    /// with Bézier easing (lottie-ios, lottie-android, lottie-web, rlottie).
    case lottie
    /// A dotLottie 2.0 archive (``DotLottieWriter``): a zip holding a
    /// manifest and the same Lottie JSON as ``lottie``, byte for byte
    /// (dotlottie-web, dotlottie-rs, lottie-ios 4.5.2 and later, lottie-android).
    case dotLottie = "dotlottie"
    /// An SVG with CSS keyframe animations in its own `<style>` (no script),
    /// for an `<img>` or inline on a web page.
    case svg

    /// The file name extensions that name this format.
    public var fileExtensions: [String] {
        switch self {
        case .lottie: ["json"]
        case .dotLottie: ["lottie"]
        case .svg: ["svg"]
        }
    }

    /// The format an extension names (any case), if it names one.
    public init?(fileExtension: String) {
        let ext = fileExtension.lowercased()
        guard let f = VectorFormat.allCases.first(where: { $0.fileExtensions.contains(ext) }) else { return nil }
        self = f
    }

    /// The file text of `config`'s scene in this format: deterministic
    /// bytes, numbers rounded to what changes no pixel at 4× scale.
    ///
    /// Throws ``ThrobberError/Kind/data`` naming the config and the JSON
    /// path of what this format cannot say: a frames config, `duplicate`,
    /// a Lottie layer in SVG, a picture whose embedded PNG would pass
    /// ``maxEmbeddedBytes``; and the scene clock's errors.
    public func data(for config: SceneConfig) throws -> [UInt8] { try file(for: config).bytes }

    /// The file text of `config`'s scene, as ``data(for:)`` writes it, and
    /// what it shows (canvas and loop), from one reading of the config,
    /// made within `memory` (nil: ``MemoryBudget/machineDefault``).
    ///
    /// Also throws ``ThrobberError/Kind/data`` naming the config and the
    /// JSON path where the file passes a limit of its making: more than
    /// ``maxFileBytes``, more than a million keyframes made (every copy's
    /// animated values, laid over the loop), or more memory than `memory`.
    public func file(for config: SceneConfig, memory: MemoryBudget? = nil) throws -> (
        bytes: [UInt8], summary: VectorSummary
    ) {
        let meter = VectorMeter(file: config.file, format: self, budget: memory ?? .machineDefault)
        let scene = try VectorScene(config: config, meter: meter)
        switch self {
        case .lottie: return (try LottieWriter(scene, meter: meter).bytes(), VectorSummary(scene))
        case .dotLottie:
            let json = try LottieWriter(scene, meter: meter).bytes()
            let themes = LottieWriter.themes(scene)
            return (try DotLottieWriter.archive(animation: json, themes: themes), VectorSummary(scene))
        case .svg: return (try SVGWriter(scene, meter: meter).bytes(), VectorSummary(scene))
        }
    }

    /// Largest vector file written (64 MiB): a config whose file would be
    /// larger is refused before anything is written.
    public static let maxFileBytes = VectorMeter.maxFileBytes

    /// Largest picture embedded in a vector file, as PNG bytes: a loader
    /// carrying more is a photograph, better sent as frames.
    public static let maxEmbeddedBytes = 1 << 20
}
