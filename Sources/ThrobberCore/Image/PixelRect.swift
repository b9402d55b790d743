/// A rectangle in pixels.
public struct PixelRect: Equatable, Sendable, CustomStringConvertible {
    /// The left edge: columns from the left of the image, 0 first.
    public var x: Int
    /// The top edge: rows from the top of the image, 0 first.
    public var y: Int
    /// The width in pixels; 0 or less is empty.
    public var width: Int
    /// The height in pixels; 0 or less is empty.
    public var height: Int

    /// The rectangle whose top-left pixel is (x, y).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// True when it holds no pixel (width or height 0 or less).
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// One past the right edge: `x + width`.
    public var maxX: Int { x + width }
    /// One past the bottom edge: `y + height`.
    public var maxY: Int { y + height }

    /// The smallest rectangle holding both (an empty one holds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The pixels in common (empty where there are none).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let r = PixelRect(x: x0, y: y0, width: min(maxX, other.maxX) - x0, height: min(maxY, other.maxY) - y0)
        return r.isEmpty ? .empty : r
    }

    /// How many pixels it holds (0 when empty).
    public var area: Int { isEmpty ? 0 : width * height }

    /// `WxH+X+Y`, as X11 and ImageMagick write geometry: `16x8+4+0`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
