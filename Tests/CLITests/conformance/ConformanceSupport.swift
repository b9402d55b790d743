import Foundation
import TestSupport
import Testing

/// Runs Tests/tools/conformance.py: every output decoded by Pillow, ffmpeg,
/// ImageMagick and Chromium (WebCodecs ImageDecoder), compared with each
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
            /// GIF: every reference frame has at most 256 colors, so the GIF must be exact.
            var lossless: Bool?
            var minPsnr: Double?
            var mostColors: Int?
            /// APNG: fcTL delays as fractions of a second; GIF: centiseconds.
            var delays: [String]?
            var delaysCs: [Int]?
            var colorType: Int?
            /// APNG: IHDR bit depth.
            var bitDepth: Int?
            /// APNG: frames drawn with blend OVER, and frames smaller than the canvas.
            var blendOver: Int?
            var partialFrames: Int?
        }
        var problems: [String]
        var notes: [String]
        var pngcheck: String?
        var timeline: Timeline?
        var sources: Int?
        var apng: Output?
        var gif: Output?
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

    /// `lossy`: the GIF was written with `--lossy`, so it is held to the
    /// PSNR floor even where the source has few enough colors to be exact.
    static func check(apng: URL?, gif: URL?, reference: Reference, psnrFloor: Double = psnrFloor, lossy: Bool = false)
        throws -> Report
    {
        var ref: [String: String] = [:]
        switch reference {
        case .config(let url): ref["config"] = url.path
        case .folder(let url, let fps): ref = ["dir": url.path, "fps": fps, "glob": "*.png"]
        }
        var spec: [String: Any] = ["reference": ref, "psnr_floor": psnrFloor, "lossy": lossy]
        if let apng { spec["apng"] = apng.path }
        if let gif { spec["gif"] = gif.path }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let result = try Command.run(
            Pillow.python, [Paths.tools.appendingPathComponent("conformance.py").path, json],
            timeout: 240)
        guard result.status == 0 else {
            throw HarnessError(
                "conformance.py failed (\(result.status)); it needs python3-pil, python3-numpy, ffmpeg, imagemagick, pngcheck and chromium: \(result.stderrText)"
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
    /// counts match the reference.
    static func expectConforms(
        _ r: Report, _ what: String, apng: Bool = true, gif: Bool = true, psnrFloor: Double = psnrFloor,
        sourceLocation: SourceLocation = #_sourceLocation
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
