import ThrobberCore

/// What happens to the input frames before they are encoded: which frames,
/// in which order, and which pixels at which size. The defaults change
/// nothing.
///
/// Frames are picked (`frames`), then reversed, then each is cropped (to
/// `crop`, then to what the frames draw inside it with `trim`), then
/// resized; duplication, bounce and speed follow, in the timeline.
public struct FrameTransform: Equatable, Sendable {
    /// Which input frames, in which order; nil: all, in input order.
    public var frames: FrameSelection? = nil
    /// Play the picked frames last to first.
    public var reverse = false
    /// The rectangle of each input frame kept; it must lie inside the frame.
    public var crop: PixelRect? = nil
    /// Crop further to the union of what any frame draws inside `crop`
    /// (see ``DrawnBox``); resolved into `crop` by ``trimmed(over:jobs:)``
    /// before frames are laid out.
    public var trim = false
    /// Pixels kept around the trimmed box on each side, within the frame
    /// (or `crop`).
    public var trimMargin = 0
    /// The output width; alone, the height follows the aspect ratio.
    public var width: Int? = nil
    /// The output height; alone, the width follows the aspect ratio.
    public var height: Int? = nil
    /// Both sides multiplied by this (0.5 turns @2x frames into @1x);
    /// not together with `width` or `height`.
    public var scale: Double? = nil
    /// How `width` and `height` together are met.
    public var fit = ResizeFit.contain
    /// The resampling kernel.
    public var filter = ResizeFilter.lanczos

    /// The largest output side, in pixels (GIF's limit).
    public static let maxSide = 65535
    /// The most output pixels per frame (256 MiB of RGBA).
    public static let maxPixels = 1 << 26

    /// Nothing picked, cropped or resized.
    public init() {}

    /// True when frames are picked or reordered.
    public var selectsFrames: Bool { frames != nil || reverse }
    /// True when pixels may change (crop or resize).
    public var changesPixels: Bool { crop != nil || trim || width != nil || height != nil || scale != nil }

    /// Refuses values that can never work, whatever the input: a usage
    /// error naming the field.
    public func validate() throws {
        func bad(_ field: SettingField, _ why: String) -> ThrobberError { ThrobberError(.usage, field: field, why) }
        if let width, !(1...Self.maxSide).contains(width) {
            throw bad(.width, "must be 1…\(Self.maxSide) pixels, got \(width)")
        }
        if let height, !(1...Self.maxSide).contains(height) {
            throw bad(.height, "must be 1…\(Self.maxSide) pixels, got \(height)")
        }
        if let scale {
            guard scale.isFinite, scale > 0, scale <= 64 else {
                throw bad(.scale, "must be above 0 and at most 64, got \(scale)")
            }
            guard width == nil && height == nil else {
                throw bad(.scale, "give either a scale or a width and height, not both")
            }
        }
        guard (0...Self.maxSide).contains(trimMargin) else {
            throw bad(.trimMargin, "must be 0…\(Self.maxSide) pixels, got \(trimMargin)")
        }
        if let crop {
            guard crop.width >= 1, crop.height >= 1, crop.x >= 0, crop.y >= 0 else {
                throw bad(
                    .crop, "needs a size of at least 1x1 and a position of at least +0+0, got \(Self.describe(crop))")
            }
        }
    }

    /// `WxH+X+Y`, the crop syntax.
    public static func describe(_ r: PixelRect) -> String { "\(r.width)x\(r.height)+\(r.x)+\(r.y)" }

    /// Parses `WxH+X+Y` (`+X+Y` may be left out for +0+0); nil otherwise.
    public static func parseCrop(_ text: String) -> PixelRect? {
        let plus = text.split(separator: "+", omittingEmptySubsequences: false)
        guard plus.count == 1 || plus.count == 3 else { return nil }
        let size = plus[0].split(separator: "x", omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Int? {
            guard (1...9).contains(s.count), s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        guard size.count == 2, let w = number(size[0]), let h = number(size[1]) else { return nil }
        var x = 0
        var y = 0
        if plus.count == 3 {
            guard let px = number(plus[1]), let py = number(plus[2]) else { return nil }
            x = px
            y = py
        }
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    /// The part of `inputWidth`×`inputHeight` frames that `crop` keeps (the
    /// whole frame without one). Throws a usage error naming the field
    /// when the crop leaves the frame.
    public func cropArea(inputWidth: Int, inputHeight: Int) throws -> PixelRect {
        guard let crop else { return PixelRect(x: 0, y: 0, width: inputWidth, height: inputHeight) }
        guard crop.maxX <= inputWidth, crop.maxY <= inputHeight else {
            throw ThrobberError(
                .usage, field: .crop, "\(Self.describe(crop)) reaches outside the \(inputWidth)x\(inputHeight) frames")
        }
        return crop
    }

    /// This transform with `trim` resolved: `crop` becomes the box of
    /// ``DrawnBox/find(in:within:jobs:)`` over every frame of `source`
    /// (read one at a time, `jobs` at once), grown by `trimMargin` on each
    /// side within the frame or the crop, and `trim` is cleared. Unchanged
    /// without `trim`. Throws the crop's usage error, the source's errors,
    /// and ``ThrobberError/Kind/data`` when frames differ in size.
    public func trimmed(over source: FrameSource, jobs: Int) throws -> (FrameTransform, DrawnBox?) {
        guard trim else { return (self, nil) }
        let box = try DrawnBox.find(in: source, within: { try cropArea(inputWidth: $0, inputHeight: $1) }, jobs: jobs)
        var t = self
        let (r, a, m) = (box.rect, box.area, trimMargin)
        let x = max(a.x, r.x - m)
        let y = max(a.y, r.y - m)
        t.crop = PixelRect(x: x, y: y, width: min(a.maxX, r.maxX + m) - x, height: min(a.maxY, r.maxY + m) - y)
        t.trim = false
        return (t, box)
    }

    /// The layout for frames of `inputWidth`×`inputHeight` (`trim` must be
    /// resolved first: unresolved, it keeps the whole crop). Throws a usage
    /// error naming the field when the crop leaves the frame or the output
    /// would be too large.
    public func layout(inputWidth: Int, inputHeight: Int) throws -> ResizeLayout {
        var source = try cropArea(inputWidth: inputWidth, inputHeight: inputHeight)
        let w = source.width
        let h = source.height
        /// a·b/c rounded half up, at least 1.
        func scaled(_ a: Int, _ b: Int, _ c: Int) -> Int { max(1, (2 * a * b + c) / (2 * c)) }
        var out = (w: w, h: h)
        var canvas: (w: Int, h: Int)? = nil
        switch (width, height, scale) {
        case (nil, nil, let s?):
            out = (max(1, Int((Double(w) * s).rounded())), max(1, Int((Double(h) * s).rounded())))
        case (let W?, nil, _):
            out = (W, scaled(h, W, w))
        case (nil, let H?, _):
            out = (scaled(w, H, h), H)
        case (let W?, let H?, _):
            switch fit {
            case .stretch:
                out = (W, H)
            case .contain:
                // The side that limits is the one with the smaller ratio.
                out = W * h <= H * w ? (W, min(H, scaled(h, W, w))) : (min(W, scaled(w, H, h)), H)
                canvas = (W, H)
            case .cover:
                // Keep the centered part of the input with the output's aspect.
                let keep = W * h >= H * w ? (w: w, h: min(h, scaled(w, H, W))) : (w: min(w, scaled(h, W, H)), h: h)
                source = PixelRect(
                    x: source.x + (w - keep.w) / 2, y: source.y + (h - keep.h) / 2, width: keep.w, height: keep.h)
                out = (W, H)
            }
        default:
            break
        }
        let c = canvas ?? out
        guard c.w <= Self.maxSide, c.h <= Self.maxSide, c.w * c.h <= Self.maxPixels else {
            throw ThrobberError(
                .usage, field: scale != nil ? .scale : (width != nil ? .width : .height),
                "the frames would be \(c.w)x\(c.h): at most \(Self.maxSide) pixels a side and \(Self.maxPixels) in all")
        }
        return ResizeLayout(
            source: source, scaledWidth: out.w, scaledHeight: out.h, canvasWidth: c.w, canvasHeight: c.h,
            offsetX: (c.w - out.w) / 2, offsetY: (c.h - out.h) / 2)
    }
}
