import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

@Suite("Format rules: one validation through the format's limits")
struct FormatRulesTests {
    @Test("lossy LZW is GIF's alone: APNG and WebP refuse any level above 0, naming what makes them smaller")
    func lossyIsGIFs() throws {
        #expect(throws: Never.self) { try EncodeSettings.with { $0.lossy = 200 }.validate(for: .gif) }
        for format in [AnimationFormat.apng, .webp] {
            #expect(throws: Never.self) { try EncodeSettings.with { $0.lossy = 0 }.validate(for: format) }
            let error = throbberError { try EncodeSettings.with { $0.lossy = 1 }.validate(for: format) }
            #expect(error?.kind == .usage && error?.field == .lossy, "\(String(describing: error))")
            #expect(error?.message.contains("--quality") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(format == .apng ? "APNG" : "WebP") == true, "\(error?.message ?? "")")
        }
    }

    @Test("WebP dithers only with a palette size; GIF and APNG dither without one")
    func ditherNeedsPaletteForWebP() throws {
        let error = throbberError { try EncodeSettings.with { $0.dither = 0.5 }.validate(for: .webp) }
        #expect(error?.kind == .usage && error?.field == .dither, "\(String(describing: error))")
        #expect(throws: Never.self) {
            try EncodeSettings.with {
                $0.dither = 0.5
                $0.colors = 64
            }.validate(for: .webp)
        }
        for format in [AnimationFormat.gif, .apng] {
            #expect(throws: Never.self) { try EncodeSettings.with { $0.dither = 0.5 }.validate(for: format) }
        }
    }

    @Test("the encoder refuses what validate refuses, before reading a frame")
    func encoderRefuses() throws {
        try withTemporaryDirectory { dir in
            let encoder = AnimationEncoder(format: .webp, settings: EncodeSettings.with { $0.lossy = 40 })
            let frames = MemoryFrameSource([
                RGBAImage(width: 4, height: 4), RGBAImage(width: 4, height: 4, fill: Color(r: 255, g: 255, b: 255)),
            ])
            let output = try OutputFile(path: dir.appendingPathComponent("o.webp").path)
            let error = throbberError { _ = try encoder.encode(frames, to: output) }
            #expect(error?.field == .lossy, "\(String(describing: error))")
        }
    }
}
