import Foundation
import TestSupport
import Testing

/// Runs Tests/tools/conformance.py: every output decoded by Pillow, ffmpeg,
/// ImageMagick and Chromium (WebCodecs ImageDecoder), a WebP by Pillow,
/// Chromium and Tests/tools/webp_compose.py (our own compositing over dwebp's
/// or ffmpeg's still decoder), compared with each
/// other and with what we meant, frame by frame and delay by delay. The
/// script lists every failed check in `problems`; these helpers turn that
/// into test failures and add the checks that must hold for every file.
enum Conformance {
    struct Report: Decodable {
        struct Timeline: Decodable {
            var cycle: String
            var fps: String
            var slots: Int
            var slot: String
        }
        struct Output: Decodable {
            var width: Int
            var height: Int
            var decoders: [String]
            var frames: Int?
            var referenceFrames: Int?
            /// GIF: every reference frame has at most 256 colors, so the GIF must
            /// be exact. WebP: every frame is VP8L, so the WebP must be exact.
            var lossless: Bool?
            var minPsnr: Double?
            var mostColors: Int?
            /// APNG: fcTL delays as fractions of a second; GIF: centiseconds.
            var delays: [String]?
            var delaysCs: [Int]?
            var colorType: Int?
            /// APNG: IHDR bit depth.
            var bitDepth: Int?
            /// APNG and WebP: frames drawn with blend OVER, and frames smaller than the canvas.
            var blendOver: Int?
            var partialFrames: Int?
            /// WebP: the delays intended, in milliseconds (the ANMF durations).
            var delaysMs: [Int]?
            /// WebP: the ANIM loop count (nil for a still WebP), and whether it is animated at all.
            var loopCount: Int?
            var animated: Bool?
            /// WebP: frames stored lossy (VP8 with ALPH).
            var lossyFrames: Int?
            /// Lossy WebP: neighbours libwebp merged because they differ by less than its tolerance.
            var mergedSimilar: Int?
        }
        var problems: [String]
        var notes: [String]
        var pngcheck: String?
        var timeline: Timeline?
        var sources: Int?
        var apng: Output?
        var gif: Output?
        var webp: Output?
        /// The head of `webpmux -info`.
        var webpmux: String?
    }

    enum Reference {
        /// A config: its layers are timed from the config itself; a frames
        /// config reads its folder.
        case config(URL)
        /// A folder as `throbber encode DIR --fps FPS` reads it.
        case folder(URL, fps: String)
    }

    /// Measured here: testsrc2 44.9 dB, mandelbrot 41.9, testsrc2-over 45.8, the ease preset 51.3, examples/ease.json 47.2 (worst frames).
    static let psnrFloor = 35.0

    /// The decoders every APNG (GIF) must have been read by. ImageMagick 6
    /// reads APNG only through its ffmpeg delegate, so it is not required
    /// for APNG; its own PNG coder reads the default image.
    static let apngDecoders: Set = ["pillow", "ffmpeg", "chromium", "imagemagick-png-default-image"]
    static let gifDecoders: Set = ["pillow", "ffmpeg", "imagemagick", "chromium"]
    /// dwebp and ffmpeg decode the WebP's frames one by one; webp_compose.py composites them.
    static let webpDecoders: Set = ["pillow", "chromium", "dwebp", "ffmpeg"]

    /// `lossy`: the GIF was written with `--lossy`, so it is held to the
    /// PSNR floor even where the source has few enough colors to be exact.
    /// `webpLossy`: the WebP was written with `--quality`, so it is held to
    /// the PSNR floor (also assumed when a frame is VP8).
    static func check(
        apng: URL?, gif: URL?, webp: URL? = nil, reference: Reference, psnrFloor: Double = psnrFloor,
        lossy: Bool = false, webpLossy: Bool = false
    ) throws -> Report {
        var ref: [String: String] = [:]
        switch reference {
        case .config(let url): ref["config"] = url.path
        case .folder(let url, let fps): ref = ["dir": url.path, "fps": fps, "glob": "*.png"]
        }
        var spec: [String: Any] = ["reference": ref, "psnr_floor": psnrFloor, "lossy": lossy, "webp_lossy": webpLossy]
        if let apng { spec["apng"] = apng.path }
        if let gif { spec["gif"] = gif.path }
        if let webp { spec["webp"] = webp.path }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let result = try Command.run(
            Pillow.python, [Paths.tools.appendingPathComponent("conformance.py").path, json],
            timeout: 240)
        guard result.status == 0 else {
            throw HarnessError(
                "conformance.py failed (\(result.status)); it needs python3-pil, python3-numpy, ffmpeg, imagemagick, pngcheck, webp and chromium: \(result.stderrText)"
            )
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(Report.self, from: result.stdout)
        } catch {
            throw HarnessError("conformance.py printed no report (\(error)): \(result.stdoutText.prefix(2000))")
        }
    }

    /// No failed check, pngcheck passed, every decoder took part, frame
    /// counts match the reference. `webp`: a WebP was checked too, lossless
    /// unless `webpLossy` (then libwebp may have merged similar neighbours).
    static func expectConforms(
        _ r: Report, _ what: String, apng: Bool = true, gif: Bool = true, webp: Bool = false, webpLossy: Bool = false,
        psnrFloor: Double = psnrFloor, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            r.problems.isEmpty, "\(what): \(r.problems.count) failed checks:\n\(r.problems.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        if apng {
            #expect(
                r.pngcheck?.hasPrefix("OK:") == true, "\(what): pngcheck says \(r.pngcheck ?? "nothing")",
                sourceLocation: sourceLocation)
            if let a = r.apng {
                #expect(
                    apngDecoders.isSubset(of: a.decoders), "\(what) APNG read only by \(a.decoders)",
                    sourceLocation: sourceLocation)
                #expect(
                    (a.frames ?? 0) > 0 && a.frames == a.referenceFrames,
                    "\(what) APNG: \(a.frames ?? -1) frames, reference \(a.referenceFrames ?? -1)",
                    sourceLocation: sourceLocation)
            } else {
                Issue.record("\(what): no APNG report", sourceLocation: sourceLocation)
            }
        }
        if gif {
            if let g = r.gif {
                #expect(
                    gifDecoders.isSubset(of: g.decoders), "\(what) GIF read only by \(g.decoders)",
                    sourceLocation: sourceLocation)
                #expect(
                    (g.frames ?? 0) > 0 && g.frames == g.referenceFrames,
                    "\(what) GIF: \(g.frames ?? -1) frames, reference \(g.referenceFrames ?? -1)",
                    sourceLocation: sourceLocation)
                #expect(
                    g.lossless != nil, "\(what): the GIF was not compared with the reference",
                    sourceLocation: sourceLocation)
                if g.lossless == false {
                    #expect(
                        (g.minPsnr ?? 0) >= psnrFloor, "\(what): quantized GIF at \(g.minPsnr ?? 0) dB",
                        sourceLocation: sourceLocation)
                }
            } else {
                Issue.record("\(what): no GIF report", sourceLocation: sourceLocation)
            }
        }
        if webp {
            expectWebPConforms(r, what, lossy: webpLossy, psnrFloor: psnrFloor, sourceLocation: sourceLocation)
        }
    }

    private static func expectWebPConforms(
        _ r: Report, _ what: String, lossy: Bool, psnrFloor: Double, sourceLocation: SourceLocation
    ) {
        guard let w = r.webp else {
            Issue.record("\(what): no WebP report", sourceLocation: sourceLocation)
            return
        }
        #expect(
            webpDecoders.isSubset(of: w.decoders), "\(what) WebP read only by \(w.decoders)",
            sourceLocation: sourceLocation)
        #expect(
            w.lossless == !lossy,
            "\(what) WebP: lossless \(w.lossless.map(String.init) ?? "unknown"), expected \(!lossy)",
            sourceLocation: sourceLocation)
        let frames = w.frames ?? 0
        let reference = w.referenceFrames ?? -1
        #expect(
            frames > 0 && (lossy ? frames <= reference : frames == reference),
            "\(what) WebP: \(frames) frames, reference \(reference)", sourceLocation: sourceLocation)
        if w.animated == true {
            #expect(w.loopCount == 0, "\(what) WebP: loop count \(w.loopCount ?? -1)", sourceLocation: sourceLocation)
        } else {
            // WebPAnimEncoder writes a one-frame animation as a still image.
            #expect(frames == 1, "\(what) WebP: a still image of \(frames) frames", sourceLocation: sourceLocation)
        }
        if lossy {
            #expect(
                (w.minPsnr ?? 0) >= psnrFloor, "\(what): lossy WebP at \(w.minPsnr ?? 0) dB",
                sourceLocation: sourceLocation)
        }
    }

    /// Runs `throbber ARGS -o OUT -q` for each output, expecting success and silence.
    static func make(_ arguments: [String], outputs: [URL], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for out in outputs {
            let r = try Throbber.run(arguments + ["-o", out.path, "-q"])
            guard r.status == 0, FileManager.default.fileExists(atPath: out.path) else {
                throw HarnessError(
                    "throbber \((arguments + ["-o", out.path]).joined(separator: " ")) failed (\(r.status)): \(r.stderrText)"
                )
            }
            #expect(r.stderr.isEmpty, "unexpected stderr: \(r.stderrText)", sourceLocation: sourceLocation)
        }
    }
}
