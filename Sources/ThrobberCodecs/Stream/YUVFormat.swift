import ThrobberCore

/// The layout and color meaning of 8-bit Y'CbCr frames (a YUV4MPEG2
/// stream's): plane sizes, chroma subsampling, matrix and range.
struct YUVFormat: Sendable, Equatable {
    /// How the two chroma planes are subsampled.
    enum Chroma: Sendable, Equatable {
        /// Half width, half height (C420jpeg, C420mpeg2, C420paldv, C420).
        case c420
        /// Half width, full height.
        case c422
        /// Full resolution.
        case c444
        /// No chroma planes: gray.
        case mono

        var label: String {
            switch self {
            case .c420: return "4:2:0"
            case .c422: return "4:2:2"
            case .c444: return "4:4:4"
            case .mono: return "mono"
            }
        }
    }

    /// The Y'CbCr to R'G'B' matrix, by its luma weights.
    enum Matrix: Sendable, Equatable {
        /// Rec. ITU-R BT.601 (SD video; ffmpeg's assumption when untagged).
        case bt601
        /// Rec. ITU-R BT.709 (HD video).
        case bt709

        /// (Kr, Kb).
        var weights: (red: Double, blue: Double) {
            switch self {
            case .bt601: return (0.299, 0.114)
            case .bt709: return (0.2126, 0.0722)
            }
        }
    }

    var width: Int
    var height: Int
    var chroma: Chroma
    var matrix: Matrix
    /// Full range (0-255) rather than limited ("TV", Y' 16-235, C 16-240).
    var fullRange: Bool

    /// log2 of the horizontal and vertical chroma subsampling.
    var shifts: (x: Int, y: Int) {
        switch chroma {
        case .c420: return (1, 1)
        case .c422: return (1, 0)
        case .c444, .mono: return (0, 0)
        }
    }

    /// Width and height of each chroma plane (0 for mono); odd sizes round up.
    var chromaSize: (width: Int, height: Int) {
        guard chroma != .mono else { return (0, 0) }
        let (sx, sy) = shifts
        return ((width + (1 << sx) - 1) >> sx, (height + (1 << sy) - 1) >> sy)
    }

    /// Bytes of one frame: the Y' plane, then Cb and Cr.
    var frameBytes: Int {
        let c = chromaSize
        return width * height + 2 * c.width * c.height
    }

    /// "640x360 4:2:0, BT.601 limited range", for messages.
    var description: String {
        "\(width)x\(height) \(chroma.label), \(matrix == .bt601 ? "BT.601" : "BT.709") \(fullRange ? "full" : "limited") range"
    }
}
