internal import CImageQuant
import ThrobberCodecs
import ThrobberCore

/// Palette reduction with libimagequant, one frame (or frame rectangle) at a
/// time, single-threaded inside so results never depend on OMP_NUM_THREADS.
struct Quantizer: Sendable {
    /// 1–100: the fewest colors that reach this quality are used.
    var quality: Int
    /// Most colors per palette, 2–256 (the transparent entry included).
    var colors: Int
    /// Floyd–Steinberg dithering strength, 0–1.
    var dither: Double
    /// libimagequant speed 1 (slowest, best) … 10.
    var speed: Int = 4

    /// A palette chosen for one image, ready to remap it.
    final class Palette {
        fileprivate let result: OpaquePointer
        fileprivate init(result: OpaquePointer) { self.result = result }
        deinit { liq_result_destroy(result) }
        /// The entries as packed RGBA, as libimagequant holds them now (a
        /// remap may still move entries that are not fixed).
        var colors: [UInt32] { Quantizer.colors(of: result) }
    }

    /// A palette of exactly `colors` (packed RGBA), every entry fixed, so
    /// remapping never moves one: frames remapped to it on several threads,
    /// each on its own copy, all index the same table.
    func fixedPalette(_ colors: [UInt32]) throws -> Palette {
        throbber_liq_single_thread()
        let attr = try makeAttributes()
        defer { liq_attr_destroy(attr) }
        liq_set_max_colors(attr, Int32(max(colors.count, 2)))
        guard let histogram = liq_histogram_create(attr) else {
            throw ThrobberError(.software, "libimagequant: out of memory")
        }
        defer { liq_histogram_destroy(histogram) }
        func liqColor(_ c: UInt32) -> liq_color {
            liq_color(r: UInt8(c & 0xFF), g: UInt8(c >> 8 & 0xFF), b: UInt8(c >> 16 & 0xFF), a: UInt8(c >> 24))
        }
        for c in colors { liq_histogram_add_fixed_color(histogram, liqColor(c), 0) }
        // libimagequant refuses an empty histogram: one color it already
        // has, so there is nothing left to choose.
        var entry = liq_histogram_entry(color: liqColor(colors.first ?? 0), count: 1)
        liq_histogram_add_colors(histogram, attr, &entry, 1, 0)
        return try Self.quantize(histogram, attr, dither: dither)
    }

    /// libimagequant's palette for `histogram`, dithering at `dither` when
    /// it remaps.
    fileprivate static func quantize(_ histogram: OpaquePointer, _ attr: OpaquePointer, dither: Double) throws
        -> Palette
    {
        var result: OpaquePointer? = nil
        let status = liq_histogram_quantize(histogram, attr, &result)
        guard status == LIQ_OK, let result else {
            throw ThrobberError(.software, "libimagequant: quantization failed (code \(status.rawValue))")
        }
        liq_set_dithering_level(result, Float(dither))
        return Palette(result: result)
    }

    fileprivate func makeAttributes() throws -> OpaquePointer {
        guard let attr = liq_attr_create() else { throw ThrobberError(.software, "libimagequant: out of memory") }
        liq_set_max_colors(attr, Int32(colors))
        liq_set_quality(attr, 0, Int32(quality))
        liq_set_speed(attr, Int32(speed))
        return attr
    }

    /// Maps `image` to `palette`. With `background` (what the viewer shows
    /// under this rectangle), pixels close enough to it become the
    /// transparent entry, which keeps unchanged areas stable between frames.
    /// Returns the indices and the palette as packed RGBA.
    func remap(_ image: RGBAImage, to palette: Palette, background: RGBAImage?) throws -> (
        indices: [UInt8], colors: [UInt32]
    ) {
        throbber_liq_single_thread()
        let attr = try makeAttributes()
        defer { liq_attr_destroy(attr) }
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        try image.pixels.withUnsafeBytes { px in
            guard let img = liq_image_create_rgba(attr, px.baseAddress!, Int32(image.width), Int32(image.height), 0)
            else {
                throw ThrobberError(.software, "libimagequant: cannot create image")
            }
            defer { liq_image_destroy(img) }
            try withExtendedLifetime(background) {
                try (background?.pixels ?? []).withUnsafeBytes { bg in
                    var bgImage: OpaquePointer? = nil
                    if let background {
                        bgImage = liq_image_create_rgba(
                            attr, bg.baseAddress!, Int32(background.width), Int32(background.height), 0)
                        if let bgImage { liq_image_set_background(img, bgImage) }  // img takes ownership
                    }
                    let status = indices.withUnsafeMutableBytes { out in
                        liq_write_remapped_image(palette.result, img, out.baseAddress!, out.count)
                    }
                    guard status == LIQ_OK else {
                        throw ThrobberError(.software, "libimagequant: remapping failed (code \(status.rawValue))")
                    }
                }
            }
        }
        return (indices, Quantizer.colors(of: palette.result))
    }

    /// Palette search and remap of one image on a single libimagequant
    /// image, so the maps libimagequant derives from it (contrast, edges,
    /// dithering) are made once, not again for the remap.
    func quantizeAndRemap(_ image: RGBAImage, transparentEntry: Bool) throws -> (indices: [UInt8], colors: [UInt32]) {
        throbber_liq_single_thread()
        let attr = try makeAttributes()
        defer { liq_attr_destroy(attr) }
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let colors: [UInt32] = try image.pixels.withUnsafeBytes { px in
            guard let img = liq_image_create_rgba(attr, px.baseAddress!, Int32(image.width), Int32(image.height), 0)
            else {
                throw ThrobberError(.software, "libimagequant: cannot create image")
            }
            defer { liq_image_destroy(img) }
            if transparentEntry { liq_image_add_fixed_color(img, liq_color(r: 0, g: 0, b: 0, a: 0)) }
            var result: OpaquePointer? = nil
            let status = liq_image_quantize(img, attr, &result)
            guard status == LIQ_OK, let result else {
                throw ThrobberError(.software, "libimagequant: quantization failed (code \(status.rawValue))")
            }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, Float(dither))
            let remapped = indices.withUnsafeMutableBytes { out in
                liq_write_remapped_image(result, img, out.baseAddress!, out.count)
            }
            guard remapped == LIQ_OK else {
                throw ThrobberError(.software, "libimagequant: remapping failed (code \(remapped.rawValue))")
            }
            return Quantizer.colors(of: result)
        }
        return (indices, colors)
    }

    /// The palette of a libimagequant result as packed RGBA.
    fileprivate static func colors(of result: OpaquePointer) -> [UInt32] {
        let table = liq_get_palette(result)!
        let count = Int(table.pointee.count)
        return withUnsafeBytes(of: table.pointee.entries) { raw in
            let entries = raw.bindMemory(to: liq_color.self)
            return (0..<count).map { i in
                let c = entries[i]
                return UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16 | UInt32(c.a) << 24
            }
        }
    }
}

extension Quantizer {
    /// One palette for many frames (APNG has a single PLTE; GIF with
    /// `--palette shared`): frames are added to a libimagequant histogram,
    /// then quantized together. Used by one thread at a time.
    final class SharedPalette: @unchecked Sendable {
        private let attr: OpaquePointer
        /// The attributes frames are added with: at `surveySpeed`.
        private let adding: OpaquePointer
        private let histogram: OpaquePointer

        /// A histogram quantized at `quantizer`'s settings; frames are
        /// added at libimagequant speed `surveySpeed` (the quantizer's when
        /// nil): from speed 8 on, libimagequant skips the contrast maps
        /// that weigh each frame's colors by how much they show.
        init(_ quantizer: Quantizer, surveySpeed: Int? = nil) throws {
            attr = try quantizer.makeAttributes()
            var survey = quantizer
            survey.speed = surveySpeed ?? quantizer.speed
            guard let adding = try? survey.makeAttributes() else {
                liq_attr_destroy(attr)
                throw ThrobberError(.software, "libimagequant: out of memory")
            }
            self.adding = adding
            guard let h = liq_histogram_create(attr) else {
                liq_attr_destroy(attr)
                liq_attr_destroy(adding)
                throw ThrobberError(.software, "libimagequant: out of memory")
            }
            histogram = h
        }

        deinit {
            liq_histogram_destroy(histogram)
            liq_attr_destroy(attr)
            liq_attr_destroy(adding)
        }

        func add(_ image: RGBAImage) throws {
            throbber_liq_single_thread()
            try image.pixels.withUnsafeBytes { px in
                guard
                    let img = liq_image_create_rgba(adding, px.baseAddress!, Int32(image.width), Int32(image.height), 0)
                else {
                    throw ThrobberError(.software, "libimagequant: cannot create image")
                }
                defer { liq_image_destroy(img) }
                guard liq_histogram_add_image(histogram, adding, img) == LIQ_OK else {
                    throw ThrobberError(.software, "libimagequant: cannot add a frame to the histogram")
                }
            }
        }

        /// A fully transparent entry, for pixels that stay as they are.
        func reserveTransparent() {
            liq_histogram_add_fixed_color(histogram, liq_color(r: 0, g: 0, b: 0, a: 0), 0)
        }

        func quantize(dither: Double) throws -> Palette {
            throbber_liq_single_thread()
            return try Quantizer.quantize(histogram, attr, dither: dither)
        }
    }
}
