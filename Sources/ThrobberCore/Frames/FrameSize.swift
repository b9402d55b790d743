/// A frame's width and height in pixels.
public struct FrameSize: Sendable, Hashable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Bytes of one frame of this size in straight RGBA; `Int.max` when
    /// that overflows (a header may claim anything).
    public var rgbaBytes: Int { Self.product(Self.product(width, height), 4) }

    /// `a` × `b` for counts ≥ 0, `Int.max` when it overflows.
    public static func product(_ a: Int, _ b: Int) -> Int {
        let (p, overflow) = max(a, 0).multipliedReportingOverflow(by: max(b, 0))
        return overflow ? .max : p
    }

    /// "640x480", as messages and `info` write sizes.
    public var description: String { "\(width)x\(height)" }
}
