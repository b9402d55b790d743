import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// GIF has no partial alpha. "Alpha ≥ 50% is opaque, the rest transparent;
/// with matte, partial alpha is composited onto the color first." The man page's
/// CONFIG FORMAT and OPTIONS say more precisely what a matte does: "pixels with
/// partial alpha are composited on it" and "only fully transparent pixels
/// stay transparent".
@Suite("Alpha")
struct AlphaTests {
    /// One red pixel per alpha value 0 … 255 (a 256x2 image).
    static let alphaRamp = Synth.image(256, 2) { x, _ in (200, 30, 40, UInt8(x)) }

    /// c·a + m·(1 − a), rounded to nearest (255 is odd, so there are no ties).
    static func over(_ c: UInt8, _ m: UInt8, alpha a: Int) -> UInt8 {
        UInt8((Double(Int(c) * a + Int(m) * (255 - a)) / 255).rounded())
    }

    static func pixel(_ pixels: [UInt8], _ x: Int) -> [UInt8] { Array(pixels[(x * 4)..<(x * 4 + 4)]) }

    @Test("the 50% cut: alpha 127 becomes transparent (0,0,0,0), alpha 128 becomes opaque with its color kept")
    func thresholdWithoutMatte() {
        var image = RGBAImage(
            width: 4, height: 1, pixels: [10, 20, 30, 0, 10, 20, 30, 127, 10, 20, 30, 128, 10, 20, 30, 255])
        AlphaPolicy().apply(to: &image)
        #expect(image.pixels == [0, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30, 255, 10, 20, 30, 255])
    }

    @Test("with a matte, a 75%-opaque pixel is blended onto the matte color")
    func matteBlends() {
        var image = RGBAImage(width: 1, height: 1, pixels: [200, 100, 0, 192])
        AlphaPolicy(matte: Color(parsing: "#0000ff")).apply(to: &image)
        // 200·192/255 = 150.6, 100·192/255 = 75.3, 255·63/255 = 63
        #expect(image.pixels == [151, 75, 63, 255])
    }

    @Test("in the GIF, alpha ≥ 128 shows the color and alpha < 128 is transparent (giflib and Pillow)")
    func gifThreshold() throws {
        let gif = try encodeGIF([Self.alphaRamp], .with { $0.jobs = 1 })
        let expected = Synth.image(256, 2) { x, _ in x >= 128 ? (200, 30, 40, 255) : (0, 0, 0, 0) }
        expectViewersShow(gif, [(expected, 4)])
    }

    @Test("in the GIF with a white matte, pixels at ≥ 50% alpha are blended onto white")
    func gifMatteOpaqueHalf() throws {
        let gif = try encodeGIF(
            [Self.alphaRamp],
            .with {
                $0.jobs = 1
                $0.alpha = AlphaPolicy(matte: Color(r: 255, g: 255, b: 255))
            })
        for (decoder, frames) in [
            ("giflib", gif.giflib.frames.map(\.pixels)), ("Pillow", gif.pillow?.frames.map(\.pixels) ?? []),
        ] {
            let shown = try #require(frames.first, "\(decoder) decoded no frame")
            for a in 128...255 {
                let expected = [
                    Self.over(200, 255, alpha: a), Self.over(30, 255, alpha: a), Self.over(40, 255, alpha: a), 255,
                ]
                #expect(Self.pixel(shown, a) == expected, "\(decoder), alpha \(a)")
            }
            #expect(Self.pixel(shown, 0) == [0, 0, 0, 0], "\(decoder): alpha 0 stays transparent")
        }
    }

    @Test(
        "with a matte, partial alpha below 50% is blended too: only fully transparent pixels stay transparent (man page, CONFIG FORMAT)"
    )
    func matteBlendsLowAlpha() throws {
        var image = Self.alphaRamp
        AlphaPolicy(matte: Color(r: 255, g: 255, b: 255)).apply(to: &image)
        #expect(Self.pixel(image.pixels, 0) == [0, 0, 0, 0])
        var wrong: [Int] = []
        for a in 1...127 {
            let expected = [
                Self.over(200, 255, alpha: a), Self.over(30, 255, alpha: a), Self.over(40, 255, alpha: a), 255,
            ]
            if Self.pixel(image.pixels, a) != expected { wrong.append(a) }
        }
        #expect(
            wrong.isEmpty,
            "alpha values not blended onto the matte: \(wrong.count) of 127, e.g. alpha 64 → \(Self.pixel(image.pixels, 64)), expected \([Self.over(200, 255, alpha: 64), Self.over(30, 255, alpha: 64), Self.over(40, 255, alpha: 64), 255])"
        )
    }

    @Test(
        "Color(parsing:) reads #RGB, #RRGGBB, #RRGGBBAA, transparent and CSS names",
        arguments: [
            ("#abc", Color(r: 0xAA, g: 0xBB, b: 0xCC)), ("#ABCDEF", Color(r: 0xAB, g: 0xCD, b: 0xEF)),
            ("#11223344", Color(r: 0x11, g: 0x22, b: 0x33, a: 0x44)), ("transparent", Color(r: 0, g: 0, b: 0, a: 0)),
            ("gray", Color(r: 128, g: 128, b: 128)), ("white", Color(r: 255, g: 255, b: 255)),
            ("black", Color(r: 0, g: 0, b: 0)), ("red", Color(r: 255, g: 0, b: 0)), ("navy", Color(r: 0, g: 0, b: 128)),
        ])
    func colorParsing(text: String, color: Color) {
        #expect(Color(parsing: text) == color, "\(text)")
    }

    @Test(
        "Color(parsing:) refuses what is not a color",
        arguments: ["", "#", "#12", "#1234", "#12345", "#1234567", "#ggg", "abc", "123456", "nosuchcolor", "#12 456"])
    func colorRefuses(text: String) {
        #expect(Color(parsing: text) == nil, "\(text) should not parse")
    }
}
