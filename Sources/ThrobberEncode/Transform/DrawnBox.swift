import ThrobberCore

/// The smallest rectangle that holds every pixel any frame draws: what
/// `--trim` keeps.
///
/// A pixel is drawn when it differs from the frames' border color, which
/// the four corners of the area tell, frame by frame:
///
/// - a fully transparent corner makes the border transparent: a pixel is
///   drawn when it is not fully transparent (gifsicle's
///   `--crop-transparency`), whatever the other corners hold;
/// - four corners of one opaque or partly transparent color make that
///   color the border: a pixel is drawn when it differs from it in any
///   channel (ImageMagick's `-trim` against the corner color, without fuzz);
/// - corners of different colors, none fully transparent, leave nothing to
///   trim in that frame.
///
/// All frames must agree on the border; when they do not, nothing is
/// trimmed (the box is the whole area). When no frame draws anything, the
/// box is the area's top-left pixel, as ImageMagick's `-trim` leaves a 1x1
/// image of a blank one.
public struct DrawnBox: Equatable, Sendable {
    /// The box, in the frames' coordinates, inside ``area``.
    public var rect: PixelRect
    /// The part of the frames looked at (the crop, or the whole frame).
    public var area: PixelRect
    /// True when no frame draws any pixel in ``area``.
    public var isBlank: Bool

    /// A border as a pixel's 32 bits (R in the low byte); fully
    /// transparent pixels all read as 0.
    typealias Border = UInt32

    /// What one frame draws: its border (nil when its corners disagree)
    /// and the box of its pixels that differ from it (empty when none do).
    struct Scan: Sendable {
        var border: Border?
        var box: PixelRect
    }

    /// The box of `source`'s frames inside the area `within` gives for the
    /// first frame's width and height (it throws when that area does not
    /// fit). Frames are read one at a time, `jobs` at once; the box is the
    /// same for any `jobs`. Throws the source's errors, `within`'s, and
    /// ``ThrobberError/Kind/data`` when frames differ in size.
    public static func find(
        in source: FrameSource, within: (Int, Int) throws -> PixelRect, jobs: Int
    ) throws -> DrawnBox {
        guard source.count > 0 else { throw ThrobberError(.noInput, "no input frames") }
        let first = try source.frame(at: 0)
        let area = try within(first.width, first.height)
        let scanned = scan(first, area)
        var agreed = scanned.border
        var union = scanned.box
        let step = max(1, jobs)
        var start = 1
        // Stops early once nothing can be trimmed.
        while start < source.count, agreed != nil, union != area {
            let n = min(step, source.count - start)
            let scans = try parallelMap(n, jobs: jobs) { [start] i -> Scan in
                let image = try source.frame(at: start + i)
                guard image.width == first.width, image.height == first.height else {
                    throw ThrobberError(
                        .data,
                        "\(source.name(at: start + i)): frame is \(image.width)x\(image.height), but \(source.name(at: 0)) is \(first.width)x\(first.height); all frames must have the same size"
                    )
                }
                return scan(image, area)
            }
            for s in scans {
                if s.border != agreed { agreed = nil }
                union = union.union(s.box)
            }
            start += n
        }
        guard agreed != nil else { return DrawnBox(rect: area, area: area, isBlank: false) }
        if union.isEmpty {
            return DrawnBox(rect: PixelRect(x: area.x, y: area.y, width: 1, height: 1), area: area, isBlank: true)
        }
        return DrawnBox(rect: union, area: area, isBlank: false)
    }

    /// The border and drawn box of one frame within `area`.
    static func scan(_ image: RGBAImage, _ area: PixelRect) -> Scan {
        image.pixels.withUnsafeBytes { raw -> Scan in
            let px = raw.bindMemory(to: UInt32.self)
            let w = image.width
            func at(_ x: Int, _ y: Int) -> UInt32 { UInt32(littleEndian: px[y * w + x]) }
            let corners = [
                at(area.x, area.y), at(area.maxX - 1, area.y), at(area.x, area.maxY - 1),
                at(area.maxX - 1, area.maxY - 1),
            ]
            let border: Border
            if corners.contains(where: { $0 >> 24 == 0 }) {
                border = 0
            } else if corners.allSatisfy({ $0 == corners[0] }) {
                border = corners[0]
            } else {
                return Scan(border: nil, box: area)
            }
            // A transparent border: any alpha drawn; else any channel differs.
            let drawn: (UInt32) -> Bool = border == 0 ? { $0 >> 24 != 0 } : { $0 != border }
            var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
            for y in area.y..<area.maxY {
                var left = area.x
                while left < area.maxX && !drawn(at(left, y)) { left += 1 }
                guard left < area.maxX else { continue }
                var right = area.maxX - 1
                while right > left && !drawn(at(right, y)) { right -= 1 }
                (x0, x1) = (min(x0, left), max(x1, right))
                if y0 == Int.max { y0 = y }
                y1 = y
            }
            guard y0 != Int.max else { return Scan(border: border, box: .empty) }
            return Scan(border: border, box: PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
        }
    }
}
