import Foundation
import TestSupport
import Testing

/// Limits of a format are the input's to meet (docs/reliability.md,
/// "Format limits"): a data error naming the limit, or a file that keeps
/// the input's timing within it; never a library's error code or exit 70.
/// With them, what `check` and `info` say before anything is encoded.
@Suite("Format limits, check's expected files and info's verdict", .tags(.slow))
struct FormatLimitTests {
    @Test("a WebP frame over 16383 pixels a side exits 65 naming the limit, and nothing is written")
    func webpSide() throws {
        try withTemporaryDirectory { dir in
            let frames = try Hostile.testsrcFrames("32x24", count: 2, in: dir.appendingPathComponent("frames"))
            let out = dir.appendingPathComponent("tall.webp")
            for size in [["--width", "2", "--height", "16384"], ["--width", "16384", "--height", "2"]] {
                let r = try Throbber.run(["encode"] + frames.map(\.path) + ["-o", out.path] + size)
                expectFailure(r, status: 65, names: ["WebP's limit of 16383 pixels a side"])
                #expect(try listing(dir) == ["frames"])
            }
            // 16383 is within it, and libwebp's own tool reads the file.
            let r = try Throbber.run(
                ["encode"] + frames.map(\.path) + ["-o", out.path, "--width", "2", "--height", "16383"])
            #expect(r.status == 0, "\(r.stderrText)")
            let info = try Command.run(URL(fileURLWithPath: "/usr/bin/webpmux"), ["-info", out.path])
            #expect(info.status == 0 && info.stdoutText.contains("Canvas size: 2 x 16383"), "\(info.stdoutText)")
        }
    }

    @Test("a frame shown for 5 hours (over WebP's 2^24 ms a frame) is kept whole: its time split over frames")
    func webpLongFrame() throws {
        try withTemporaryDirectory { dir in
            // Two frames 18000 s apart, the second shown for another second.
            let clip = dir.appendingPathComponent("slow.mkv")
            try StreamSupport.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=16x16:rate=1:duration=2", "-vf", "setpts=N*18000/TB", "-fps_mode",
                "passthrough", "-c:v", "ffv1", clip.path,
            ])
            let out = dir.appendingPathComponent("slow.webp")
            let r = try Throbber.run(["encode", clip.path, "-o", out.path])
            #expect(r.status == 0, "\(r.stderrText)")
            let info = try Command.run(URL(fileURLWithPath: "/usr/bin/webpmux"), ["-info", out.path])
            #expect(info.status == 0, "\(info.stderrText)")
            // webpmux lists one frame a line: "  1:  16  16  no  0  0  16000000  none  no  662  lossless".
            let durations = info.stdoutText.split(separator: "\n").compactMap { line -> Int? in
                let fields = line.split(separator: " ")
                guard fields.count >= 7, fields[0].hasSuffix(":"), Int(fields[0].dropLast()) != nil else { return nil }
                return Int(fields[6])
            }
            #expect(durations.allSatisfy { $0 < 1 << 24 }, "\(durations)")
            #expect(durations.reduce(0, +) == 18_001_000, "\(durations)")
        }
    }

    @Test("check refuses an expected SVG or Lottie file that is a FIFO, at once, without opening it")
    func checkExpectedFIFO() throws {
        try withTemporaryDirectory { dir in
            let zeros = String(repeating: "0", count: 64)
            for output in ["dots.svg", "dots.json"] {
                let fifo = dir.appendingPathComponent(output)
                try Hostile.mkfifo(fifo)
                let manifest = dir.appendingPathComponent("hashes.json")
                try Data(#"{"entries": [{"preset": "dots", "output": "\#(output)", "sha256": "\#(zeros)"}]}"#.utf8)
                    .write(to: manifest)
                let start = Date()
                let r = try Throbber.run(["check", manifest.path])
                #expect(Date().timeIntervalSince(start) < 10)
                #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
                #expect(r.stdoutText.contains("is a pipe or FIFO, not a regular file"), "\(r.stdoutText)")
                #expect(Hostile.type(fifo.path) == S_IFIFO)
                try FileManager.default.removeItem(at: fifo)
            }
        }
    }

    @Test("info says when encode would refuse a clip with its defaults, and why; encode then refuses it so")
    func infoTellsTheRefusal() throws {
        try withTemporaryDirectory { dir in
            // 400 s at 30 fps: 12000 frames, over the 10000 an encode takes.
            let clip = dir.appendingPathComponent("long.mp4")
            try StreamSupport.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=32x24:rate=30:duration=400", "-c:v", "libx264", "-preset",
                "ultrafast", clip.path,
            ])
            let text = try Throbber.run(["info", clip.path])
            #expect(text.status == 0, "\(text.stderrText)")
            let line = text.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
            #expect(line.hasPrefix("encode refuses it with its defaults: "), "\(text.stdoutText)")
            #expect(line.contains("12000 frames") && line.contains("--fps"), "\(line)")
            let json = try Throbber.run(["info", "--json", clip.path])
            let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
            let refusal = object?["encode_refusal"] as? String
            #expect(refusal?.contains("12000 frames") == true, "\(json.stdoutText)")
            let r = try Throbber.run(["encode", clip.path, "-o", dir.appendingPathComponent("o.gif").path])
            expectFailure(r, status: 65, names: [clip.path, "12000 frames"])
            #expect(refusal.map { r.stderrText.contains($0) } == true)
            // A clip encode takes: no refusal.
            let short = try VideoEncodeTests.h264(dir, name: "short.mp4", seconds: 1)
            let fine = try Throbber.run(["info", "--json", short.path])
            let fineObject = try JSONSerialization.jsonObject(with: fine.stdout) as? [String: Any]
            #expect(fineObject?["encode_refusal"] is NSNull, "\(fine.stdoutText)")
        }
    }
}
