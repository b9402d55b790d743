import Glibc
import ThrobberKit

/// A vector file made from a config: its bytes, and what it shows for the
/// summary line.
struct VectorOutput {
    var format: VectorFormat
    var bytes: [UInt8]
    var shows: VectorSummary

    /// Makes `config`'s file in `format` within `memory`. Throws
    /// ``ThrobberError/Kind/data`` naming the config and JSON path for what
    /// the format cannot say, or a file over its limits.
    init(config: SceneConfig, format: VectorFormat, memory: MemoryBudget?) throws {
        self.format = format
        (bytes, shows) = try format.file(for: config, memory: memory)
    }

    /// The line that says what was written: "wrote loader.svg: SVG 60x60
    /// pt, loop of 24 frames, 1.20 s, 3.1 kB (3100 bytes)", the frames
    /// being those a GIF of the config has.
    func summary(path: String, bytes: Int) -> String {
        let seconds = cFormat("%.2f", shows.loop.doubleValue)
        let size = bytes >= 1000 ? "\(ByteSize.describe(bytes)) (\(bytes) bytes)" : "\(bytes) bytes"
        let frames = shows.frames == 1 ? "1 frame" : "\(shows.frames) frames"
        return
            "wrote \(path): \(format.name) \(Self.points(shows.width))x\(Self.points(shows.height)) pt, loop of \(frames), \(seconds) s, \(size)"
    }

    /// A length in points: whole, or with up to 2 decimals.
    static func points(_ value: Rational) -> String {
        value.denominator == 1 ? "\(value.numerator)" : cFormat("%g", (value.doubleValue * 100).rounded() / 100)
    }
}
