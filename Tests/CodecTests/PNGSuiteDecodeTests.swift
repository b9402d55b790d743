import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// "PNG through libpng: every valid image of PngSuite (1–16 bit, gray,
/// gray+alpha, palette, tRNS, interlaced) decodes to the right RGBA."
///
/// The reference is Tests/tools/reference_decode.py: Pillow's own PNG
/// decoder (not libpng) for 1–8 bit files; for 16-bit files a small
/// pure-Python reader that scales each sample as round(v·255/65535), as
/// libpng's png_set_scale_16 does (checked for all 65536 values). Pillow
/// alone cannot be the 16-bit reference: it keeps the high byte (v >> 8),
/// which differs from rounding by one in about half of the samples; the
/// script cross-checks its reader against those high bytes on every run.
/// ImageMagick was rejected too: it gamma-converts files that have gAMA.
/// One Pillow 9.4 bug is worked around in the script: for 1/2/4-bit gray
/// with tRNS (tbbn0g04) it compares the unscaled key with scaled samples;
/// libpng (our decoder) is right there, as pngcheck's tRNS value shows.
/// What we found is "right" (and what the decoder documents): samples are
/// kept as stored, with no gamma correction, and the comparison is exact.
@Suite("PNG decoding (PngSuite)", Fixtures.needed, .tags(.slow))
struct PNGSuiteDecodeTests {
    static let valid = Fixtures.names(in: "pngsuite", suffix: ".png").filter { !$0.hasPrefix("x") }
    static let corrupt = Fixtures.names(in: "pngsuite", prefix: "x", suffix: ".png")

    static func path(_ name: String) -> String { Fixtures.root.appendingPathComponent("pngsuite/\(name)").path }

    /// One run of the reference decoder for the whole suite, shared by all cases.
    static let reference = Result { try referenceDecode(valid.map(path)) }

    @Test("the suite is complete: 162 valid images and the 14 corrupt x*.png")
    func suiteIsComplete() throws {
        _ = try Fixtures.folder("pngsuite")
        #expect(Self.valid.count == 162)
        #expect(Self.corrupt.count == 14)
    }

    @Test("every valid PngSuite image decodes to the reference RGBA, exactly", arguments: valid)
    func decodesLikeTheReference(name: String) throws {
        let reference = try #require(try Self.reference.get()[name], "no reference decode for \(name)")
        #expect(
            reference.via == "pillow" || reference.via == "raw16",
            "the 16-bit reference reader disagrees with Pillow on \(name): \(reference.via)")
        let image = try ImageDecoder.decode(fileAt: Self.path(name))
        try #require(
            image.width == reference.width && image.height == reference.height,
            "\(name): \(image.width)x\(image.height), reference \(reference.width)x\(reference.height)")
        expectPixels(image.pixels, reference.pixels, width: image.width, "\(name) (reference: \(reference.via))")
    }

    @Test("16-bit samples are rounded to 8 bits, not truncated (basn2c16)")
    func sixteenBitSamplesAreRounded() throws {
        // Red samples read from the file with reference_decode.py's reader:
        // (3,0) is 0xE739 = 59193 → 59193·255/65535 = 230.3 → 230 (v >> 8 would give 231);
        // (24,0) is 0x39CE = 14798 → 57.58 → 58 (v >> 8 would give 57).
        let image = try ImageDecoder.decode(fileAt: Self.path("basn2c16.png"))
        #expect(image.pixels[(0 * 32 + 3) * 4] == 230)
        #expect(image.pixels[(0 * 32 + 24) * 4] == 58)
    }

    @Test(
        "samples are kept as stored: gAMA (0.35 to 2.5) is not applied",
        arguments: ["g03n0g16.png", "g25n0g16.png", "g03n2c08.png", "g25n2c08.png", "g03n3p04.png", "g25n3p04.png"])
    func gammaIsNotApplied(name: String) throws {
        // Neither reference applies gAMA, so equality means "as stored". A
        // gamma-correcting decoder would change these most (gamma far from 1).
        let expected = try #require(try Self.reference.get()[name])
        let image = try ImageDecoder.decode(fileAt: Self.path(name))
        expectPixels(image.pixels, expected.pixels, width: image.width, "\(name) decoded as stored")
    }

    @Test(
        "tRNS makes exactly the keyed color transparent (gray 16-bit, RGB 16-bit, palette)",
        arguments: ["tbwn0g16.png", "tbbn2c16.png", "tbbn3p08.png", "tp1n3p08.png", "tbbn0g04.png"])
    func transparencyKey(name: String) throws {
        let image = try ImageDecoder.decode(fileAt: Self.path(name))
        let alphas = Set(stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] })
        #expect(alphas.contains(0), "\(name) has a transparent color but decoded without transparency")
        #expect(alphas.contains(255), "\(name) decoded with no opaque pixel")
    }

    @Test(
        "Adam7-interlaced images decode like their non-interlaced twins",
        arguments: [
            "0g01", "0g02", "0g04", "0g08", "0g16", "2c08", "2c16", "3p01", "3p02", "3p04", "3p08",
            "4a08", "4a16", "6a08", "6a16",
        ])
    func interlacedEqualsProgressive(kind: String) throws {
        let interlaced = try ImageDecoder.decode(fileAt: Self.path("basi\(kind).png"))
        let plain = try ImageDecoder.decode(fileAt: Self.path("basn\(kind).png"))
        #expect(interlaced.width == plain.width && interlaced.height == plain.height)
        expectPixels(interlaced.pixels, plain.pixels, width: plain.width, "basi\(kind) vs basn\(kind)")
    }

    @Test("each corrupt x*.png is refused as bad data, naming the file", arguments: corrupt)
    func corruptFileIsRefused(name: String) throws {
        let path = Self.path(name)
        let error = throbberError { _ = try ImageDecoder.decode(fileAt: path) }
        #expect(error?.kind == .data, "\(name): \(String(describing: error))")
        #expect(
            error?.message.hasPrefix(path + ": ") == true, "message should start with the file: \(error?.message ?? "")"
        )
    }
}
