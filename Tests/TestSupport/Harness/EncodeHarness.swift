import Foundation
import Testing
import ThrobberKit

/// A GIF made by `AnimationEncoder`, read back by both independent decoders.
package struct EncodedGIF {
    package var bytes: [UInt8]
    package var report: EncodeReport
    package var giflib: DecodedGIF
    package var pillow: PillowGIF?
}

/// Encodes `frames` to a GIF file in a temporary folder and decodes it with
/// giflib (and Pillow unless `pillow` is false).
package func encodeGIF(_ frames: [RGBAImage], _ settings: EncodeSettings, pillow: Bool = true) throws -> EncodedGIF {
    try encodeGIF(MemoryFrameSource(frames), settings, pillow: pillow)
}

package func encodeGIF(_ source: FrameSource, _ settings: EncodeSettings, pillow: Bool = true) throws -> EncodedGIF {
    try withTemporaryDirectory { dir in
        let path = dir.appendingPathComponent("out.gif").path
        let output = try OutputFile(path: path)
        let report = try AnimationEncoder(format: .gif, settings: settings).encode(source, to: output)
        try output.commit()
        return EncodedGIF(
            bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), report: report,
            giflib: try DecodedGIF(path: path), pillow: pillow ? try PillowGIF(path: path) : nil)
    }
}

/// Only the bytes of the GIF `AnimationEncoder` writes for `source`.
package func gifBytes(_ source: FrameSource, _ settings: EncodeSettings) throws -> [UInt8] {
    try withTemporaryDirectory { dir in
        let path = dir.appendingPathComponent("out.gif").path
        let output = try OutputFile(path: path)
        _ = try AnimationEncoder(format: .gif, settings: settings).encode(source, to: output)
        try output.commit()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

extension EncodeSettings {
    /// Settings with the given fields changed.
    package static func with(_ change: (inout EncodeSettings) -> Void) -> EncodeSettings {
        var s = EncodeSettings()
        change(&s)
        return s
    }
}

/// When entry k of a frame sequence at `num/den` fps starts, in centiseconds,
/// by the config format's timing (man throbber, CONFIG FORMAT): floor(100·k·den/num + 1/2), in integers.
package func expectedStartCentiseconds(_ k: Int, fpsNumerator num: Int, fpsDenominator den: Int = 1) -> Int {
    (200 * k * den + num) / (2 * num)
}

/// Checks what a viewer shows at every centisecond of one loop: decoded
/// frame pixels shown for `delay` cs each must equal the expected image
/// shown at that time. This holds whatever frames were merged or cropped.
/// With `minPSNR` (quantized output) colors need only reach that PSNR, but
/// transparency must still match exactly.
package func expectViewerShows(
    _ shown: [(pixels: [UInt8], delay: Int)], _ expected: [(image: RGBAImage, delay: Int)],
    decoder: String, minPSNR: Double? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let total = expected.reduce(0) { $0 + $1.delay }
    let shownTotal = shown.reduce(0) { $0 + $1.delay }
    #expect(
        shownTotal == total, "\(decoder): the loop lasts \(shownTotal) cs, expected \(total) cs",
        sourceLocation: sourceLocation)
    func timeline(_ delays: [Int]) -> [Int] {
        delays.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) }
    }
    let a = timeline(shown.map(\.delay))
    let e = timeline(expected.map(\.delay))
    var checked = Set<[Int]>()
    for t in 0..<min(a.count, e.count) where checked.insert([a[t], e[t]]).inserted {
        let image = expected[e[t]].image
        let what = "\(decoder): at \(t) cs, frame \(a[t]) vs source \(e[t])"
        if let minPSNR {
            let db = psnr(shown[a[t]].pixels, image.pixels)
            #expect(db >= minPSNR, "\(what): PSNR \(db) dB", sourceLocation: sourceLocation)
            let px = shown[a[t]].pixels
            let wrong = stride(from: 3, to: px.count, by: 4).filter { px[$0] != image.pixels[$0] }.count
            #expect(wrong == 0, "\(what): \(wrong) pixels differ in transparency", sourceLocation: sourceLocation)
        } else if !expectPixels(
            shown[a[t]].pixels, image.pixels, width: image.width, what,
            sourceLocation: sourceLocation)
        {
            return  // one mismatch report per decoder is enough
        }
    }
}

/// Both decoders' views of `gif` against the expected sequence.
package func expectViewersShow(
    _ gif: EncodedGIF, _ expected: [(image: RGBAImage, delay: Int)], minPSNR: Double? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectViewerShows(
        gif.giflib.frames.map { ($0.pixels, $0.delay) }, expected, decoder: "giflib",
        minPSNR: minPSNR, sourceLocation: sourceLocation)
    if let pillow = gif.pillow {
        expectViewerShows(
            pillow.frames.map { ($0.pixels, ($0.durationMs ?? 0) / 10) }, expected, decoder: "Pillow",
            minPSNR: minPSNR, sourceLocation: sourceLocation)
    }
}
