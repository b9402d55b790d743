import Foundation

/// Facts about the animation fixtures and measures both test targets use.
public enum AnimationFixtures {
    /// The APNG fixture folders under ../shared/fixtures.
    public static let apngFolders = ["apng-pillow", "apng-apngkit/spec", "apng-apngkit/animations", "apng-image-png"]

    /// "Files that are meant to fail to decode", APNG part (Pillow's test
    /// names; apngkit's spec 042–057 but 046, 047, 050).
    public static let invalidAPNG: [String] =
        [
            "chunk_no_fctl", "chunk_no_fdat", "chunk_repeat_fctl", "sequence_fdat_fctl", "sequence_gap",
            "sequence_reorder",
            "sequence_reorder_chunk", "sequence_repeat", "sequence_repeat_chunk", "sequence_start",
            "syntax_num_frames_high",
            "syntax_num_frames_zero",
        ].map { "apng-pillow/\($0).png" }
        + (42...57).filter { ![46, 47, 50].contains($0) }.map { String(format: "apng-apngkit/spec/%03d.png", $0) }

    /// GIF fixtures that are bombs or have no picture.
    public static let invalidGIF = [
        "gif-pillow/decompression_bomb.gif", "gif-pillow/decompression_bomb_extents.gif",
        "gif-pillow/zero_width.gif",
    ]

    /// The GIF NETSCAPE count as plays: none → 1, 0 → forever (0), n → n + 1
    /// (Chromium's cc/paint/image_animation_count.h: "the animation plays n + 1 cycles").
    public static func plays(netscape: Int?) -> Int { netscape.map { $0 == 0 ? 0 : $0 + 1 } ?? 1 }
}

/// Peak signal-to-noise ratio in dB over the RGB channels of the pixels
/// that are opaque in `expected` (transparent ones carry no color); −∞ when
/// the two are not the same size.
public func psnr(_ actual: [UInt8], _ expected: [UInt8]) -> Double {
    guard actual.count == expected.count else { return -.infinity }
    var sum = 0.0
    var n = 0
    for p in stride(from: 0, to: actual.count, by: 4) where expected[p + 3] == 255 {
        for c in 0..<3 {
            let d = Double(Int(actual[p + c]) - Int(expected[p + c]))
            sum += d * d
            n += 1
        }
    }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(n)))
}
