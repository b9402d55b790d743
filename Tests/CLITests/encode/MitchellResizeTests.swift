import Foundation
import TestSupport
import Testing

/// `--resize-filter mitchell` against a Mitchell–Netravali resize (B = C =
/// 1/3) written from the filter's definition in numpy
/// (Tests/tools/mitchell_resize.py): separable, pixel centres aligned, the
/// support of 2 widened by the factor when shrinking, edges repeated.
///
/// The floor, 60 dB, is far above what another kernel gives: throbber's
/// default Lanczos-3 on the same frames scores 40.7 dB against this
/// reference. Measured with mitchell: 73.8 dB (÷2.5), 73.1 dB (÷6.4),
/// 66.8 dB (×1.5; libswscale's 14-bit fixed-point weights and its
/// intermediate rounding are the difference).
@Suite("encode --resize-filter mitchell: against a reference Mitchell–Netravali resize", .tags(.slow))
struct MitchellResizeTests {
    static let floor = 60.0

    /// Two frames of testsrc2 at 640x360 (sharp edges, gradients, text).
    static func sources(in dir: URL) throws -> [URL] {
        try ffmpegSourceFrames("testsrc2=size=640x360:rate=25", count: 2, in: dir, name: "src")
    }

    /// Encodes `frames` to a lossless APNG with `args`; returns its PSNR per
    /// frame against the numpy reference at `width` x `height`.
    static func psnr(_ frames: [URL], _ args: [String], width: Int, height: Int, in dir: URL) throws -> [Double] {
        let out = dir.appendingPathComponent("out.png")
        let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", out.path, "--fps", "25", "-q"] + args)
        #expect(r.status == 0, "\(r.stderrText)")
        let decoded = try Pillow.decode(out)
        #expect(decoded.width == width && decoded.height == height, "\(decoded.width)x\(decoded.height)")
        let refs = dir.appendingPathComponent("mitchell-\(width)")
        _ = try Pillow.script("mitchell_resize.py", ["\(width)", "\(height)", refs.path] + frames.map(\.path))
        let expected = (1...frames.count).map { refs.appendingPathComponent(String(format: "%04d.png", $0)) }
        let match = try Pillow.match(out, against: expected, sameIndex: true)
        #expect(match.frames.count == frames.count)
        return match.frames.map { $0.psnr[0] }
    }

    @Test(
        "shrinking by 2.5 and 6.4 and enlarging by 1.5 matches the reference at ≥ 60 dB",
        arguments: [(256, 144), (100, 56), (960, 540)])
    func matchesReference(_ width: Int, _ height: Int) throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.sources(in: dir)
            let db = try Self.psnr(
                frames, ["--width", "\(width)", "--resize-filter", "mitchell"], width: width, height: height, in: dir)
            for (i, v) in db.enumerated() {
                #expect(v >= Self.floor, "frame \(i): \(v) dB against the numpy Mitchell–Netravali resize")
            }
        }
    }

    @Test("the reference tells the kernels apart: Lanczos (the default) stays under the floor")
    func lanczosIsNotMitchell() throws {
        try withTemporaryDirectory { dir in
            let frames = try Self.sources(in: dir)
            let db = try Self.psnr(frames, ["--width", "256"], width: 256, height: 144, in: dir)
            for (i, v) in db.enumerated() {
                #expect(v < Self.floor - 10, "frame \(i): \(v) dB; the reference cannot tell Lanczos from Mitchell")
            }
        }
    }
}
