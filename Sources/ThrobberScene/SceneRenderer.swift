internal import CCairo
import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Draws a scene at a given time with cairo: anti-aliased shapes, images
/// transformed with a good filter, everything in points scaled to pixels.
public struct SceneRenderer: Sendable {
    /// Width of the rendered images: canvas width in points × scale.
    public let widthPixels: Int
    /// Height of the rendered images: canvas height in points × scale.
    public let heightPixels: Int
    let canvasSize: (Double, Double)
    let scale: Int
    let background: Color
    let layers: [Layer]
    let step: Rational
    /// `timing.speed`: the config's own time runs this many times as fast
    /// as the time played.
    let speed: Rational
    /// Each picture's pixels as cairo draws them (premultiplied BGRA), by
    /// file: made once, not at every drawing of every copy.
    let pictures: [String: [UInt8]]

    /// A renderer for `layers` on `config`'s canvas. The canvas must have a
    /// width and height, as every config with `layers` has after
    /// ``ConfigDecoder``; without them this traps.
    public init(config: SceneConfig, layers: [Layer]) {
        let w = config.canvas.width!
        let h = config.canvas.height!
        let s = Rational(config.canvas.scale)
        widthPixels = Int((w * s).numerator)
        heightPixels = Int((h * s).numerator)
        canvasSize = (w.doubleValue, h.doubleValue)
        scale = config.canvas.scale
        background = config.canvas.background
        self.layers = layers
        step = config.timing.step
        speed = config.timing.speed
        var pictures: [String: [UInt8]] = [:]
        func collect(_ layers: [Layer]) {
            for layer in layers {
                switch layer.kind {
                case .image(let p) where pictures[p.path] == nil:
                    pictures[p.path] = SceneRenderer.premultipliedBGRA(p.image)
                case .group(let children): collect(children)
                default: break
                }
            }
        }
        collect(layers)
        self.pictures = pictures
    }

    /// The scene `t` seconds played into it (as ``SceneClock`` counts, so
    /// `t` · `timing.speed` in the config's own time), as straight-alpha RGBA.
    public func render(at t: Rational) throws -> RGBAImage {
        let t = t * speed
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(widthPixels), Int32(heightPixels))
        else {
            throw ThrobberError(.software, "cairo: cannot create a \(widthPixels)x\(heightPixels) surface")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, Double(scale), Double(scale))
        if background.a > 0 {
            setSourceColor(cr, background)
            cairo_paint(cr)
        }
        for layer in layers { try draw(layer, cr, t: t, extraDelay: Rational(0)) }
        cairo_surface_flush(surface)
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            throw ThrobberError(.software, "cairo: \(String(cString: cairo_status_to_string(cairo_status(cr))))")
        }
        return SceneRenderer.unpremultiply(surface, width: widthPixels, height: heightPixels)
    }

    private var canvasCenter: (Double, Double) { (canvasSize.0 / 2, canvasSize.1 / 2) }

    /// Draws `layer` at time `t` (its animations started `extraDelay`
    /// late), its repeats and opacity applied.
    private func draw(_ layer: Layer, _ cr: OpaquePointer, t: Rational, extraDelay: Rational)
        throws
    {
        if layer.repeats != nil {
            for (copy, delay) in layer.repeatCopies(canvasCenter: canvasCenter) {
                try draw(copy, cr, t: t, extraDelay: extraDelay + delay)
            }
            return
        }

        // Static transform, with the animated values composed on top.
        var rotate = layer.rotate
        var rotateY = 0.0
        var scaleX = layer.scale
        var scaleY = layer.scale
        var opacity = layer.opacity
        var tx = 0.0
        var ty = 0.0
        var animated = Animated()
        for a in layer.animations {
            let v = a.value(at: t, extraDelay: extraDelay, step: step)
            switch a.property {
            case .rotate: rotate += v
            case .rotateY: rotateY += v
            case .scale:
                scaleX *= v
                scaleY *= v
            case .scaleX: scaleX *= v
            case .scaleY: scaleY *= v
            case .opacity: opacity *= v
            case .translateX: tx += v
            case .translateY: ty += v
            case .start: animated.start = v
            case .end: animated.end = v
            case .offset: animated.offset = v
            case .d: animated.morph = v
            }
        }
        opacity = min(1, max(0, opacity))
        let flip = cos(rotateY * .pi / 180)
        let sx = scaleX * flip
        if opacity <= 0 || abs(sx) < 1e-9 || abs(scaleY) < 1e-9 { return }

        let c = layer.center ?? canvasCenter
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, c.0 + tx + layer.displacement.0, c.1 + ty + layer.displacement.1)
        cairo_rotate(cr, rotate * .pi / 180)
        cairo_scale(cr, sx, scaleY)
        let faded = opacity < 1
        if faded { cairo_push_group(cr) }
        try drawShape(layer, cr, t: t, extraDelay: extraDelay, animated: animated, center: c)
        if faded {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }

    /// The animated values that replace a shape's own, where animated.
    struct Animated {
        var start: Double? = nil, end: Double? = nil, offset: Double? = nil, morph: Double? = nil
    }

    /// Draws what `layer` shows, in its own coordinates (its center at the
    /// origin; the canvas's `center` there before its transform), with
    /// the `animated` arc angles, trim and morph where there are.
    private func drawShape(
        _ layer: Layer, _ cr: OpaquePointer, t: Rational, extraDelay: Rational, animated: Animated,
        center c: (Double, Double)
    ) throws {
        switch layer.kind {
        case .circle(let radius):
            cairo_new_path(cr)
            cairo_arc(cr, 0, 0, radius, 0, 2 * .pi)
            setSourceColor(cr, layer.fill)
            cairo_fill(cr)
        case .rect(let w, let h, let corner):
            SceneRenderer.roundedRect(cr, w: w, h: h, r: min(corner, w / 2, h / 2))
            setSourceColor(cr, layer.fill)
            cairo_fill(cr)
        case .arc(var arc):
            if let s = animated.start { arc.start = s }
            if let e = animated.end { arc.end = e }
            // Clockwise from start to end (end wraps past start, as in cairo).
            var a0 = arc.start
            var a1 = arc.end
            if a1 - a0 >= 360 {
                a0 = 0
                a1 = 360
            }
            if a1 != a0 {
                cairo_new_path(cr)
                cairo_arc(cr, 0, 0, arc.radius, (a0 - 90) * .pi / 180, (a1 - 90) * .pi / 180)
                cairo_set_line_width(cr, arc.width)
                cairo_set_line_cap(cr, arc.roundCap ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
                setSourceColor(cr, layer.stroke)
                cairo_stroke(cr)
            }
        case .path(let shape):
            SceneRenderer.drawPath(shape, cr, fill: layer.fill, stroke: layer.stroke, animated: animated)
        case .image(let picture):
            drawImage(picture, cr)
        case .lottie(let lottie):
            try drawLottie(lottie, cr, localTime: t - extraDelay)
        case .group(let children):
            cairo_translate(cr, -c.0, -c.1)
            for child in children { try draw(child, cr, t: t, extraDelay: extraDelay) }
        }
    }

    private static func roundedRect(_ cr: OpaquePointer, w: Double, h: Double, r: Double) {
        let x0 = -w / 2
        let y0 = -h / 2
        let x1 = w / 2
        let y1 = h / 2
        cairo_new_path(cr)
        if r <= 0 {
            cairo_rectangle(cr, x0, y0, w, h)
            return
        }
        cairo_arc(cr, x1 - r, y0 + r, r, -.pi / 2, 0)
        cairo_arc(cr, x1 - r, y1 - r, r, 0, .pi / 2)
        cairo_arc(cr, x0 + r, y1 - r, r, .pi / 2, .pi)
        cairo_arc(cr, x0 + r, y0 + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    /// Draws an image centered, at its point size (pixels / @Nx scale).
    private func drawImage(_ picture: SceneImage, _ cr: OpaquePointer) {
        let img = picture.image
        let data = pictures[picture.path] ?? SceneRenderer.premultipliedBGRA(img)
        let stride = img.width * 4
        data.withUnsafeBytes { raw in
            // A source surface's pixels are only read: the shared array is not copied.
            guard
                let source = cairo_image_surface_create_for_data(
                    UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                    CAIRO_FORMAT_ARGB32, Int32(img.width), Int32(img.height), Int32(stride))
            else { return }
            defer { cairo_surface_destroy(source) }
            let s = 1 / Double(picture.pixelScale)
            cairo_save(cr)
            cairo_scale(cr, s, s)
            cairo_translate(cr, -Double(img.width) / 2, -Double(img.height) / 2)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, 0, 0, Double(img.width), Double(img.height))
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }

    /// Straight RGBA → cairo's premultiplied native-endian ARGB32 (BGRA bytes on little-endian).
    static func premultipliedBGRA(_ img: RGBAImage) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: img.pixels.count)
        img.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = Int(p[i + 3])
                out[i] = UInt8((Int(p[i + 2]) * a + 127) / 255)
                out[i + 1] = UInt8((Int(p[i + 1]) * a + 127) / 255)
                out[i + 2] = UInt8((Int(p[i]) * a + 127) / 255)
                out[i + 3] = UInt8(a)
            }
        }
        return out
    }

    /// cairo's premultiplied ARGB32 → straight RGBA (rounded).
    static func unpremultiply(_ surface: OpaquePointer, width: Int, height: Int) -> RGBAImage {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = data + y * stride
            for x in 0..<width {
                let b = Int(row[x * 4])
                let g = Int(row[x * 4 + 1])
                let r = Int(row[x * 4 + 2])
                let a = Int(row[x * 4 + 3])
                let o = (y * width + x) * 4
                guard a > 0 else { continue }
                out[o] = UInt8(min(255, (r * 255 + a / 2) / a))
                out[o + 1] = UInt8(min(255, (g * 255 + a / 2) / a))
                out[o + 2] = UInt8(min(255, (b * 255 + a / 2) / a))
                out[o + 3] = UInt8(a)
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}

func setSourceColor(_ cr: OpaquePointer, _ c: Color) {
    cairo_set_source_rgba(cr, Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255, Double(c.a) / 255)
}
