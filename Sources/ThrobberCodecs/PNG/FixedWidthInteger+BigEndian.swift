import ThrobberCore

extension FixedWidthInteger {
    /// The value's bytes, most significant first (PNG's byte order).
    var bigEndianBytes: [UInt8] { withUnsafeBytes(of: bigEndian) { Array($0) } }
}
