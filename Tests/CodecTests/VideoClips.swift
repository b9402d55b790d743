import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Clips made by the `ffmpeg` command for the video tests, and ffmpeg's
/// own decode of them as the reference.
enum VideoClips {
    static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    static let ffprobe = URL(fileURLWithPath: "/usr/bin/ffprobe")
    static let available = FileManager.default.isExecutableFile(atPath: ffmpeg.path)

    /// Skips a test when the ffmpeg command is missing, except on CI, where
    /// the test runs and fails.
    static let needed: ConditionTrait = .enabled(
        if: available || Fixtures.isCI, "the ffmpeg command is not installed; video tests skipped")

    /// Runs ffmpeg with `arguments`, writing `name` in `dir`; returns its path.
    @discardableResult
    static func make(_ dir: URL, _ name: String, _ arguments: [String]) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let r = try Command.run(ffmpeg, ["-v", "error", "-nostdin", "-y"] + arguments + [path])
        guard r.status == 0 else { throw HarnessError("ffmpeg \(arguments.joined(separator: " ")): \(r.stderrText)") }
        return path
    }

    /// testsrc2 at `size` and `rate` for `seconds`, as lavfi input arguments.
    /// Odd sizes are cropped from the next even one (testsrc2 draws even sizes only).
    static func testsrc(_ size: String = "64x48", rate: Int = 25, seconds: String = "0.4") -> [String] {
        let (w, h) = (Int(size.split(separator: "x")[0])!, Int(size.split(separator: "x")[1])!)
        let source = "testsrc2=size=\(w + w % 2)x\(h + h % 2):rate=\(rate),format=rgb24,crop=\(w):\(h):0:0"
        return ["-f", "lavfi", "-i", source, "-t", seconds]
    }

    /// The scale filter converting to RGBA as Throbber does, with the tags
    /// given. `vertical` is the chroma's position down, in 1/256 of a line:
    /// 128, between the lines, for 4:2:0; 0 where chroma is not subsampled
    /// down (4:2:2, 4:4:4).
    static func scale(
        matrix: String, range: String, flags: String = "bicubic", size: String? = nil, vertical: Int = 128
    ) -> String {
        let dims = size.map { "w=\($0.split(separator: "x")[0]):h=\($0.split(separator: "x")[1]):" } ?? ""
        return "scale=\(dims)in_color_matrix=\(matrix):in_range=\(range):out_range=pc:in_h_chr_pos=0:"
            + "in_v_chr_pos=\(vertical):"
            + "flags=\(flags)+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgba"
    }

    /// Every frame of `path` as ffmpeg decodes it through `filter` (no
    /// frame dropped or repeated), `width` × `height` RGBA each.
    static func reference(
        _ path: String, filter: String, width: Int, height: Int, decoder: String? = nil, autorotate: Bool = true
    ) throws -> [RGBAImage] {
        var args = ["-v", "error", "-nostdin"] + (autorotate ? [] : ["-noautorotate"])
        if let decoder { args += ["-c:v", decoder] }
        args += ["-i", path, "-vf", filter, "-fps_mode", "passthrough", "-f", "rawvideo", "-"]
        let r = try Command.run(ffmpeg, args)
        guard r.status == 0 else { throw HarnessError("ffmpeg reference of \(path): \(r.stderrText)") }
        let bytes = [UInt8](r.stdout)
        let size = width * height * 4
        guard bytes.count % size == 0 else {
            throw HarnessError("ffmpeg wrote \(bytes.count) bytes, not frames of \(size)")
        }
        return stride(from: 0, to: bytes.count, by: size).map {
            RGBAImage(width: width, height: height, pixels: Array(bytes[$0..<$0 + size]))
        }
    }

    /// ffprobe's best-effort timestamp of every frame, exactly, in seconds
    /// (its integer timestamps times the stream's time base).
    static func frameTimes(_ path: String) throws -> [Rational] {
        let base = try probe(path, ["-show_entries", "stream=time_base"])
        let parts = base.split(separator: "/").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 else { throw HarnessError("ffprobe time base: \(base)") }
        let stamps = try probe(path, ["-show_entries", "frame=best_effort_timestamp"])
        return stamps.split(separator: "\n").compactMap { Int64($0) }.map { Rational($0 * parts[0], parts[1]) }
    }

    /// ffprobe's answer for the first video stream, values only.
    static func probe(_ path: String, _ entries: [String]) throws -> String {
        let r = try Command.run(
            ffprobe, ["-v", "error", "-select_streams", "v:0"] + entries + ["-of", "default=nw=1:nk=1", path])
        guard r.status == 0 else { throw HarnessError("ffprobe \(path): \(r.stderrText)") }
        return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every frame of `file`, decoded by a ``VideoFrameSource`` with `jobs`
    /// threads, asked for in `order` (all at once from `jobs` threads when
    /// `jobs` > 1), returned in frame order.
    static func decode(_ file: VideoFile, jobs: Int = 1, order: [Int]? = nil) throws -> [RGBAImage] {
        let n = file.frameStarts.count
        let source = VideoFrameSource(
            file: file, frames: Array(0..<n), durations: Array(repeating: Rational(1, 25), count: n), jobs: jobs)
        let order = order ?? Array(0..<n)
        let results = Results(count: n)
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for i in stride(from: worker, to: order.count, by: jobs) {
                results.set(order[i], Result { try source.frame(at: order[i]) })
            }
        }
        return try results.values().map { try $0.get() }
    }

    /// Frames filled in from several threads.
    final class Results: @unchecked Sendable {
        private var slots: [Result<RGBAImage, any Error>?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: Result<RGBAImage, any Error>) { lock.withLock { slots[i] = value } }
        func values() -> [Result<RGBAImage, any Error>] { lock.withLock { slots.map { $0! } } }
    }

    /// Records an issue unless `ours` is within one level of `theirs`
    /// everywhere or at least 50 dB PSNR; returns whether it was.
    @discardableResult
    static func expectClose(
        _ ours: RGBAImage, _ theirs: RGBAImage, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        guard ours.width == theirs.width, ours.height == theirs.height else {
            Issue.record(
                "\(what): \(ours.width)x\(ours.height), ffmpeg \(theirs.width)x\(theirs.height)",
                sourceLocation: sourceLocation)
            return false
        }
        var worst = 0
        var squares = 0.0
        for (a, b) in zip(ours.pixels, theirs.pixels) {
            let d = abs(Int(a) - Int(b))
            worst = max(worst, d)
            squares += Double(d * d)
        }
        let mse = squares / Double(ours.pixels.count)
        let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        guard worst <= 1 || psnr >= 50 else {
            Issue.record("\(what): worst difference \(worst), PSNR \(psnr) dB", sourceLocation: sourceLocation)
            return false
        }
        return true
    }
}
