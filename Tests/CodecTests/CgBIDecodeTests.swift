import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// "Apple CgBI PNGs (mjrefresh-dropdown_anim/*.png) decode to the same
/// pixels as their normalized/ copies." The copies are standard RGBA PNGs,
/// read here by Pillow, so neither side of the comparison is our PNG code.
@Suite("Apple CgBI PNG decoding", Fixtures.needed)
struct CgBIDecodeTests {
    static let folder = "mjrefresh-dropdown_anim"
    static let crushed = Fixtures.names(in: folder, prefix: "dropdown_anim__", suffix: ".png")

    static func path(_ name: String) -> String { Fixtures.root.appendingPathComponent("\(folder)/\(name)").path }
    static func normalized(_ name: String) -> String {
        Fixtures.root.appendingPathComponent("\(folder)/normalized/\(name)").path
    }

    /// Pillow's decode of every normalized copy, made once.
    static let reference = Result { try referenceDecode(crushed.map(normalized)) }

    @Test("all 60 frames are there and really are CgBI (a CgBI chunk before IHDR)")
    func framesAreCgBI() throws {
        _ = try Fixtures.folder(Self.folder)
        #expect(Self.crushed.count == 60)
        for name in Self.crushed {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
            #expect(
                bytes.count > 16 && String(decoding: bytes[12..<16], as: UTF8.self) == "CgBI", "\(name) is not CgBI")
        }
    }

    @Test("each CgBI frame decodes to exactly the pixels of its normalized copy", arguments: crushed)
    func matchesNormalizedCopy(name: String) throws {
        let expected = try #require(try Self.reference.get()[name], "no reference for normalized/\(name)")
        let image = try ImageDecoder.decode(fileAt: Self.path(name))
        try #require(image.width == 100 && image.height == 100 && expected.width == 100 && expected.height == 100)
        expectPixels(image.pixels, expected.pixels, width: 100, "\(name) vs normalized/\(name)")
    }

    @Test("a CgBI frame has real color and partial alpha (premultiplication undone, BGRA swapped)")
    func colorAndAlphaSurvive() throws {
        // Guards against a trivially "equal" comparison: the frames are not
        // blank, gray or opaque, so channel order and alpha matter.
        let image = try ImageDecoder.decode(fileAt: Self.path("dropdown_anim__00030@2x.png"))
        var partial = 0
        var colored = 0
        for p in stride(from: 0, to: image.pixels.count, by: 4) {
            let (r, g, b, a) = (image.pixels[p], image.pixels[p + 1], image.pixels[p + 2], image.pixels[p + 3])
            if a > 0 && a < 255 { partial += 1 }
            if a == 255 && (r != g || g != b) { colored += 1 }
        }
        #expect(partial > 0)
        #expect(colored > 0)
    }
}
