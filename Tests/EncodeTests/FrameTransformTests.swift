import Testing

@testable import ThrobberKit

@Suite("Frame transforms: sizes, aspect and rounding")
struct FrameTransformLayoutTests {
    func size(_ w: Int, _ h: Int, _ edit: (inout FrameTransform) -> Void) throws -> (Int, Int) {
        var t = FrameTransform()
        edit(&t)
        try t.validate()
        let layout = try t.layout(inputWidth: w, inputHeight: h)
        return (layout.canvasWidth, layout.canvasHeight)
    }

    @Test("one side keeps the aspect ratio, rounded to whole pixels")
    func oneSide() throws {
        #expect(try size(1280, 720) { $0.width = 480 } == (480, 270))
        #expect(try size(1000, 333) { $0.width = 480 } == (480, 160))
        #expect(try size(1280, 720) { $0.height = 100 } == (178, 100))
        #expect(try size(1000, 1) { $0.width = 10 } == (10, 1), "a 1-pixel result, not 0")
        #expect(try size(3, 1000) { $0.height = 7 } == (1, 7))
        #expect(try size(101, 57) { $0.width = 33 } == (33, 19))
    }

    @Test("--scale multiplies both sides: 0.5 turns @2x into @1x, 2 doubles")
    func scale() throws {
        #expect(try size(128, 64) { $0.scale = 0.5 } == (64, 32))
        #expect(try size(75, 75) { $0.scale = 0.5 } == (38, 38))
        #expect(try size(16, 9) { $0.scale = 2 } == (32, 18))
        #expect(try size(10, 10) { $0.scale = 0.01 } == (1, 1))
    }

    @Test("both sides: contain pads (centered), cover crops (centered), stretch distorts")
    func fits() throws {
        var t = FrameTransform()
        t.width = 100
        t.height = 100
        var layout = try t.layout(inputWidth: 200, inputHeight: 100)
        #expect(layout.canvasWidth == 100 && layout.canvasHeight == 100)
        #expect(layout.scaledWidth == 100 && layout.scaledHeight == 50 && layout.offsetY == 25 && layout.offsetX == 0)
        t.fit = .cover
        layout = try t.layout(inputWidth: 200, inputHeight: 100)
        #expect(layout.source == PixelRect(x: 50, y: 0, width: 100, height: 100))
        #expect(layout.scaledWidth == 100 && layout.scaledHeight == 100)
        t.fit = .stretch
        layout = try t.layout(inputWidth: 200, inputHeight: 100)
        #expect(layout.source == PixelRect(x: 0, y: 0, width: 200, height: 100))
        #expect(layout.scaledWidth == 100 && layout.scaledHeight == 100)
    }

    @Test("the crop comes first, and the size is that of the crop resized")
    func cropThenResize() throws {
        var t = FrameTransform()
        t.crop = PixelRect(x: 100, y: 50, width: 400, height: 300)
        t.width = 200
        let layout = try t.layout(inputWidth: 640, inputHeight: 480)
        #expect(layout.source == t.crop)
        #expect(layout.canvasWidth == 200 && layout.canvasHeight == 150)
    }

    @Test("a crop reaching outside the frames is a usage error naming the frame size")
    func cropOutside() throws {
        var t = FrameTransform()
        t.crop = PixelRect(x: 600, y: 0, width: 100, height: 10)
        let error = try #require(throws: ThrobberError.self) { try t.layout(inputWidth: 640, inputHeight: 480) }
        #expect(error.kind == .usage && error.field == .crop)
        #expect(error.message.contains("640x480"), "\(error.message)")
    }

    @Test("zero sizes, --scale 0, negative or non-finite scales and scale with width are refused")
    func refused() {
        let cases: [(SettingField, (inout FrameTransform) -> Void)] = [
            (.width, { $0.width = 0 }), (.height, { $0.height = 0 }), (.width, { $0.width = 70000 }),
            (.scale, { $0.scale = 0 }), (.scale, { $0.scale = -1 }), (.scale, { $0.scale = .infinity }),
            (.scale, { $0.scale = .nan }),
            (
                .scale,
                {
                    $0.scale = 0.5
                    $0.width = 10
                }
            ),
            (.crop, { $0.crop = PixelRect(x: 0, y: 0, width: 0, height: 5) }),
        ]
        for (field, edit) in cases {
            var t = FrameTransform()
            edit(&t)
            #expect(throws: ThrobberError.self) { try t.validate() }
            do { try t.validate() } catch let e as ThrobberError { #expect(e.field == field, "\(e.message)") } catch {}
        }
    }

    @Test("an output larger than 65535 pixels a side is refused before any frame is resized")
    func tooLarge() throws {
        var t = FrameTransform()
        t.scale = 64
        #expect(throws: ThrobberError.self) { try t.layout(inputWidth: 2000, inputHeight: 10) }
    }

    @Test("--crop parses WxH+X+Y and WxH")
    func parseCrop() {
        #expect(FrameTransform.parseCrop("640x360+0+120") == PixelRect(x: 0, y: 120, width: 640, height: 360))
        #expect(FrameTransform.parseCrop("10x20") == PixelRect(x: 0, y: 0, width: 10, height: 20))
        for bad in ["", "10", "10x", "x10", "10x10+5", "10x10+-5+5", "10x10+5+5+5", "axb", "10X10"] {
            #expect(FrameTransform.parseCrop(bad) == nil, "'\(bad)' parsed")
        }
    }
}

@Suite("Resampling: premultiplied, no fringes, exact where it can be")
struct ResamplerTests {
    /// A `size`×`size` image: a disc of `color` with a soft (linear ramp)
    /// alpha edge, on fully transparent pixels of `background`.
    func softDisc(size: Int, color: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) -> RGBAImage {
        var image = RGBAImage(width: size, height: size)
        let c = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let d = ((Double(x) + 0.5 - c) * (Double(x) + 0.5 - c) + (Double(y) + 0.5 - c) * (Double(y) + 0.5 - c))
                    .squareRoot()
                // Opaque inside radius 0.3·size, transparent beyond 0.4·size.
                let a = max(0, min(1, (0.4 * Double(size) - d) / (0.1 * Double(size))))
                let i = (y * size + x) * 4
                let inside = a > 0
                image.pixels[i] = inside ? color.0 : background.0
                image.pixels[i + 1] = inside ? color.1 : background.1
                image.pixels[i + 2] = inside ? color.2 : background.2
                image.pixels[i + 3] = UInt8((a * 255).rounded())
            }
        }
        return image
    }

    func resized(_ image: RGBAImage, by scale: Double, filter: ResizeFilter = .lanczos) throws -> RGBAImage {
        var t = FrameTransform()
        t.scale = scale
        t.filter = filter
        return try TransformedFrames(MemoryFrameSource([image]), transform: t).frame(at: 0)
    }

    @Test(
        "a white disc with soft alpha edges on transparent black, resized by 0.37: every visible pixel stays white (no dark fringe)",
        arguments: [ResizeFilter.lanczos, .mitchell])
    func noDarkFringe(_ filter: ResizeFilter) throws {
        let out = try resized(
            softDisc(size: 200, color: (255, 255, 255), background: (0, 0, 0)), by: 0.37, filter: filter)
        #expect(out.width == 74 && out.height == 74)
        var visible = 0
        var partial = 0
        for i in stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[i + 3] >= 4 {
            visible += 1
            if out.pixels[i + 3] < 250 { partial += 1 }
            let darkest = min(out.pixels[i], out.pixels[i + 1], out.pixels[i + 2])
            #expect(darkest >= 250, "pixel \(i / 4): \(out.pixels[i..<i + 4].map { $0 }) has a dark fringe")
        }
        #expect(
            visible > 1000 && partial > 50, "the disc and its soft edge survive: \(visible) visible, \(partial) partial"
        )
    }

    @Test("a black disc on transparent white, resized by 0.37: every visible pixel stays black (no light fringe)")
    func noLightFringe() throws {
        let out = try resized(softDisc(size: 200, color: (0, 0, 0), background: (255, 255, 255)), by: 0.37)
        for i in stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[i + 3] >= 4 {
            let lightest = max(out.pixels[i], out.pixels[i + 1], out.pixels[i + 2])
            #expect(lightest <= 5, "pixel \(i / 4): \(out.pixels[i..<i + 4].map { $0 }) has a light fringe")
        }
    }

    @Test("the alpha of the soft edge is resampled, not thresholded: the disc's area is kept within 2 %")
    func alphaArea() throws {
        let disc = softDisc(size: 200, color: (255, 255, 255), background: (0, 0, 0))
        let out = try resized(disc, by: 0.37)
        func coverage(_ image: RGBAImage) -> Double {
            stride(from: 3, to: image.pixels.count, by: 4).reduce(0.0) { $0 + Double(image.pixels[$1]) / 255 }
        }
        let expected = coverage(disc) * 0.37 * 0.37
        #expect(abs(coverage(out) - expected) / expected < 0.02, "\(coverage(out)) vs \(expected)")
    }

    @Test("nearest neighbour at 3× repeats every pixel exactly, alpha included")
    func nearestInteger() throws {
        var image = RGBAImage(width: 4, height: 3)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8((i * 37 + 11) % 256) }
        let out = try resized(image, by: 3, filter: .nearest)
        #expect(out.width == 12 && out.height == 9)
        for y in 0..<9 {
            for x in 0..<12 {
                let o = (y * 12 + x) * 4
                let s = ((y / 3) * 4 + x / 3) * 4
                #expect(Array(out.pixels[o..<o + 4]) == Array(image.pixels[s..<s + 4]), "(\(x), \(y))")
            }
        }
    }

    @Test("a solid color stays that color at any size, with any filter", arguments: ResizeFilter.allCases)
    func solid(_ filter: ResizeFilter) throws {
        let image = RGBAImage(width: 37, height: 23, fill: Color(r: 200, g: 30, b: 90, a: 128))
        for scale in [0.1, 0.37, 1.7, 4] {
            let out = try resized(image, by: scale, filter: filter)
            for i in stride(from: 0, to: out.pixels.count, by: 4) {
                let px = Array(out.pixels[i..<i + 4])
                #expect(
                    px.enumerated().allSatisfy { abs(Int($1) - Int([200, 30, 90, 128][$0])) <= 1 }, "\(scale): \(px)")
            }
        }
    }

    @Test("a crop without resizing copies the rectangle exactly")
    func cropOnly() throws {
        var image = RGBAImage(width: 8, height: 8)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8(i % 251) }
        var t = FrameTransform()
        t.crop = PixelRect(x: 2, y: 3, width: 4, height: 2)
        let out = try TransformedFrames(MemoryFrameSource([image]), transform: t).frame(at: 0)
        #expect(out.width == 4 && out.height == 2)
        for y in 0..<2 {
            let o = y * 4 * 4
            let s = ((y + 3) * 8 + 2) * 4
            #expect(Array(out.pixels[o..<o + 16]) == Array(image.pixels[s..<s + 16]))
        }
    }
}
