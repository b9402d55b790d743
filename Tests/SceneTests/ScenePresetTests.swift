import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Every preset in PresetCatalog.all (whatever is added later): its printed
/// config is a valid config that means the same animation, and the options
/// do what `throbber preset --help` says.
@Suite("scene presets: the catalog and its options")
struct ScenePresetTests {
    static let required = [
        "ease", "dots", "dots-flip", "spinner", "ring", "dual-ring", "pulse", "ripple", "bars", "wave",
        "bounce", "chase", "grid", "square-spin", "pacman", "orbit", "ellipsis", "heart",
    ]

    static var names: [String] { PresetCatalog.all.map(\.name) }

    @Test("the catalog has at least the 18 required presets, each name once, each with a one-line summary")
    func catalog() {
        #expect(PresetCatalog.all.count >= 18)
        #expect(Set(Self.names).count == Self.names.count)
        for name in Self.required { #expect(PresetCatalog.named(name) != nil, "missing preset \(name)") }
        for p in PresetCatalog.all { #expect(!p.summary.isEmpty && !p.summary.contains("\n"), "\(p.name)") }
    }

    static func options(
        size: Int? = nil, scale: Int? = nil, speed: Rational = Rational(1), fps: Rational? = nil,
        color: Color? = nil, background: Color? = nil
    ) -> PresetOptions {
        var o = PresetOptions()
        o.size = size
        o.scale = scale
        o.speed = speed
        o.fps = fps
        o.color = color
        o.background = background
        return o
    }

    @Test(
        "the printed config decodes (as a file would) to a scene that renders identically",
        arguments: PresetCatalog.all.map(\.name))
    func printedConfigRoundTrips(_ name: String) throws {
        let preset = try #require(PresetCatalog.named(name))
        for o in [
            Self.options(),
            Self.options(
                size: 100, scale: 2, speed: Rational(3, 2), fps: Rational(30), color: Color(r: 10, g: 132, b: 255),
                background: Color(r: 255, g: 255, b: 255)),
        ] {
            let text = try preset.configText(o)
            let fromText = try ConfigDecoder.decode(
                Array(text.utf8), file: "\(name).json", baseDirectory: "/nonexistent")
            let direct = try preset.config(o)
            let a = try SceneTestKit.clock(fromText)
            let b = try SceneTestKit.clock(direct)
            #expect(a == b)
            let ra = try SceneTestKit.renderer(fromText)
            let rb = try SceneTestKit.renderer(direct)
            for k in stride(from: 0, to: a.frameCount, by: max(1, a.frameCount / 5)) {
                #expect(
                    try ra.render(at: a.time(ofFrame: k)) == (try rb.render(at: a.time(ofFrame: k))),
                    "\(name) frame \(k)")
            }
        }
    }

    @Test(
        "--size sets the larger side in pixels (32, 64, 256), at any --scale", arguments: PresetCatalog.all.map(\.name))
    func size(_ name: String) throws {
        let preset = try #require(PresetCatalog.named(name))
        for size in [32, 64, 256] {
            for scale in [nil, 1, 2, 3] {
                let r = try SceneTestKit.renderer(try preset.config(Self.options(size: size, scale: scale)))
                #expect(
                    max(r.widthPixels, r.heightPixels) == size,
                    "\(name) size \(size) scale \(String(describing: scale)): \(r.widthPixels)x\(r.heightPixels)")
            }
        }
    }

    @Test(
        "--speed 2 halves the cycle exactly, --speed 1/2 doubles it; --fps sets the frame rate",
        arguments: PresetCatalog.all.map(\.name))
    func speedAndFPS(_ name: String) throws {
        let preset = try #require(PresetCatalog.named(name))
        let normal = try SceneTestKit.clock(try preset.config(Self.options()))
        let fast = try SceneTestKit.clock(try preset.config(Self.options(speed: Rational(2))))
        let slow = try SceneTestKit.clock(try preset.config(Self.options(speed: Rational(1, 2), fps: Rational(10))))
        #expect(fast.duration * Rational(2) == normal.duration, "\(name): \(normal.duration) s → \(fast.duration) s")
        #expect(slow.duration == normal.duration * Rational(2))
        #expect(try preset.config(Self.options(fps: Rational(12))).timing.fps == Rational(12))
        #expect(Int64(slow.frameCount) == (slow.duration * Rational(10)).roundedHalfUp)
        // Sped up, the animation shows at t what the normal one shows at 2t.
        let rn = try SceneTestKit.renderer(try preset.config(Self.options()))
        let rf = try SceneTestKit.renderer(try preset.config(Self.options(speed: Rational(2))))
        let t = normal.duration * Rational(1, 5)
        #expect(try rf.render(at: t * Rational(1, 2)) == (try rn.render(at: t)), "\(name)")
    }

    @Test(
        "--color and --background reach the config: the background fills the canvas, the color is drawn",
        arguments: PresetCatalog.all.map(\.name))
    func colors(_ name: String) throws {
        let preset = try #require(PresetCatalog.named(name))
        let ink = Color(r: 10, g: 132, b: 255)
        let paper = Color(r: 255, g: 240, b: 192)
        let config = try preset.config(Self.options(color: ink, background: paper))
        #expect(config.canvas.background == paper)
        let clock = try SceneTestKit.clock(config)
        let r = try SceneTestKit.renderer(config)
        var inkPixels = 0
        var paperPixels = 0
        var seeThrough = 0
        for k in stride(from: 0, to: clock.frameCount, by: max(1, clock.frameCount / 6)) {
            let image = try r.render(at: clock.time(ofFrame: k))
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image.rgba(x, y)
                    if p[3] != 255 { seeThrough += 1 }
                    if p == [255, 240, 192, 255] { paperPixels += 1 }
                    // Nearer the ink than the paper: more than half-way to the color.
                    let toInk = abs(p[0] - 10) + abs(p[1] - 132) + abs(p[2] - 255)
                    let toPaper = abs(p[0] - 255) + abs(p[1] - 240) + abs(p[2] - 192)
                    if toInk < toPaper { inkPixels += 1 }
                }
            }
        }
        #expect(seeThrough == 0, "\(name): an opaque background leaves \(seeThrough) pixels see-through")
        #expect(
            paperPixels > 0 && inkPixels > 0, "\(name): \(paperPixels) background pixels, \(inkPixels) in the color")
    }

    @Test(
        "preset ease with --ring/--icon uses the user's images at their @2x size (the real Coding.net assets)",
        Fixtures.needed)
    func easeWithImages() throws {
        let ring = Fixtures.root.appendingPathComponent("coding-ios/loading_loop@2x.png").path
        let icon = Fixtures.root.appendingPathComponent("coding-ios/loading_monkey@2x.png").path
        var o = PresetOptions()
        o.ring = ring
        o.icon = icon
        let config = try #require(PresetCatalog.named("ease")).config(o)
        let layers = try SceneTestKit.layers(config)
        var paths: [String] = []
        for layer in layers { if case .image(let image) = layer.kind { paths.append(image.path) } }
        #expect(paths == [ring, icon])
        let r = try SceneTestKit.renderer(config)
        #expect(r.widthPixels == 120 && r.heightPixels == 120)
        // At t = 0 the ring is unturned and the icon opaque: the canvas is the two images, centered.
        let frame = try r.render(at: Rational(0))
        let images = try referenceImages([ring, icon])  // Pillow's decode of the two assets
        let ringImage = images[0]
        let iconImage = images[1]
        var worst = 0
        for y in 0..<120 {
            for x in 0..<120 {
                // Expected: the icon over the ring, "over" compositing in straight alpha.
                let r0 = ringImage.rgba(x, y)
                let inIcon = (25..<95).contains(x) && (25..<95).contains(y)
                let i0 = inIcon ? iconImage.rgba(x - 25, y - 25) : [0, 0, 0, 0]
                let ai = Double(i0[3]) / 255
                let ar = Double(r0[3]) / 255
                let a = ai + ar * (1 - ai)
                let got = frame.rgba(x, y)
                worst = max(worst, abs(Int((a * 255).rounded()) - got[3]))
                if a > 0.5 {
                    for ch in 0..<3 {
                        let c = (Double(i0[ch]) * ai + Double(r0[ch]) * ar * (1 - ai)) / a
                        worst = max(worst, abs(Int(c.rounded()) - got[ch]))
                    }
                }
            }
        }
        #expect(worst <= 3, "frame 0 differs from ring + icon by up to \(worst) levels")
    }
}
