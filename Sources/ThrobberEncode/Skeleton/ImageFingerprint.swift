import ThrobberCore

/// Two independent 64-bit hashes of an image's size and pixels: equal
/// images have equal fingerprints, and two different ones the same with
/// odds of about 2⁻¹²⁸. For telling whether two frames far apart in a
/// scan are the same without keeping both.
struct ImageFingerprint: Equatable, Hashable {
    let a: UInt64
    let b: UInt64

    init(_ image: RGBAImage) {
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(image.width)
        var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F ^ UInt64(image.height)
        image.pixels.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                a = ImageFingerprint.mix(a ^ w, 0xFF51_AFD7_ED55_8CCD)
                b = ImageFingerprint.mix(b &+ w, 0xC4CE_B9FE_1A85_EC53)
            }
            for i in (words * 8)..<raw.count {
                a = ImageFingerprint.mix(a ^ UInt64(raw[i]), 0xFF51_AFD7_ED55_8CCD)
                b = ImageFingerprint.mix(b &+ UInt64(raw[i]), 0xC4CE_B9FE_1A85_EC53)
            }
        }
        (self.a, self.b) = (a, b)
    }

    /// One multiply-and-shift round of a 64-bit mixer.
    private static func mix(_ x: UInt64, _ k: UInt64) -> UInt64 {
        let y = x &* k
        return y ^ (y >> 29)
    }
}
