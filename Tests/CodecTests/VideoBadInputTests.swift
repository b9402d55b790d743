import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Files that are not videos, or broken ones: recognised by content, and
/// refused with errors that name the file.
@Suite("Video bad input", VideoClips.needed)
struct VideoBadInputTests {
    static let budget = MemoryBudget(limit: 1 << 30)

    @Test("videos are recognised by content, whatever their name; images, text, Lottie and noise are not")
    func recognition() throws {
        try withTemporaryDirectory { dir in
            let mp4 = try VideoClips.make(dir, "clip.mp4", VideoClips.testsrc() + ["-c:v", "libx264"])
            let renamed = dir.appendingPathComponent("clip.png").path
            try FileManager.default.copyItem(atPath: mp4, toPath: renamed)
            let webm = try VideoClips.make(dir, "clip.webm", VideoClips.testsrc() + ["-c:v", "libvpx-vp9"])
            let avi = try VideoClips.make(dir, "clip.avi", VideoClips.testsrc() + ["-c:v", "mpeg4"])
            for path in [mp4, renamed, webm, avi] { #expect(VideoFile.isVideo(path), "\(path)") }

            var images: [String] = []
            for name in ["still.png", "anim.gif", "anim.webp", "still.jpg"] {
                let args = VideoClips.testsrc(seconds: "0.2") + (name.hasSuffix(".png") ? ["-frames:v", "1"] : [])
                images.append(
                    try VideoClips.make(dir, name, args + (name.hasSuffix(".jpg") ? ["-frames:v", "1"] : [])))
            }
            let apng = try VideoClips.make(dir, "anim.apng", VideoClips.testsrc(seconds: "0.2") + ["-f", "apng"])
            var generator = SystemRandomNumberGenerator()
            let noise = dir.appendingPathComponent("noise.bin")
            try Data((0..<20000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: noise)
            let text = dir.appendingPathComponent("notes.txt")
            try Data(String(repeating: "Frames of a loader, one a line.\n", count: 100).utf8).write(to: text)
            let lottie = dir.appendingPathComponent("loader.json")
            try Data(#"{"v":"5.7.4","fr":30,"ip":0,"op":60,"w":64,"h":48,"layers":[]}"#.utf8).write(to: lottie)
            for path in images + [apng, noise.path, text.path, lottie.path, dir.path, "/dev/null", "/no/such/file"] {
                #expect(!VideoFile.isVideo(path), "\(path)")
            }
        }
    }

    @Test("a file with only audio: no video stream")
    func audioOnly() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-c:a", "aac"])
            let error = throbberError { _ = try VideoFile(path: path, budget: Self.budget, threads: 1) }
            #expect(error?.kind == .data)
            #expect(error?.message == "\(path): no video stream (it has 1 audio stream)")
        }
    }

    @Test("truncated MP4s, with the index at the end or at the start, are data errors naming the file")
    func truncated() throws {
        try withTemporaryDirectory { dir in
            for (name, flags) in [("end.mp4", [String]()), ("faststart.mp4", ["-movflags", "+faststart"])] {
                let path = try VideoClips.make(
                    dir, name, VideoClips.testsrc("160x120", seconds: "1") + ["-c:v", "libx264"] + flags)
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
                let error = throbberError {
                    let file = try VideoFile(path: path, budget: Self.budget, threads: 1)
                    _ = try VideoClips.decode(file)
                }
                #expect(error?.kind == .data, "\(name): \(String(describing: error))")
                #expect(error?.message.hasPrefix(path) == true, "\(name): \(String(describing: error))")
                #expect(error?.message.contains("cut short") == true, "\(name): \(String(describing: error))")
                if name == "end.mp4" { #expect(error?.message.contains("moov atom") == true) }
            }
        }
    }

    @Test("a missing file is a no-input error; noise is a data error")
    func missingAndNoise() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.appendingPathComponent("gone.mp4").path
            let error = throbberError { _ = try VideoFile(path: missing, budget: Self.budget, threads: 1) }
            #expect(error?.kind == .noInput)
            #expect(error?.message.hasPrefix(missing) == true)
            let noise = dir.appendingPathComponent("noise.mp4")
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }).write(to: noise)
            let bad = throbberError { _ = try VideoFile(path: noise.path, budget: Self.budget, threads: 1) }
            #expect(bad?.kind == .data)
        }
    }

    @Test("a picture that does not fit the memory budget is refused before decoding")
    func overBudget() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "big.mp4", VideoClips.testsrc("640x480", seconds: "0.1") + ["-c:v", "libx264"])
            let error = throbberError {
                _ = try VideoFile(path: path, budget: MemoryBudget(limit: 4 << 20), threads: 1)
            }
            #expect(error?.kind == .data)
            #expect(error?.message.contains("640x480") == true)
        }
    }

    @Test("headers claiming 100000x100000 or 12000x12000 pixels are refused before decoding")
    func hugeHeader() throws {
        try withTemporaryDirectory { dir in
            for side in [100_000, 12_000] {
                let path = dir.appendingPathComponent("huge\(side).y4m")
                let header = "YUV4MPEG2 W\(side) H\(side) F25:1 Ip A1:1 C420jpeg\nFRAME\n"
                try Data((header + String(repeating: "x", count: 4096)).utf8).write(to: path)
                let error = throbberError { _ = try VideoFile(path: path.path, budget: Self.budget, threads: 1) }
                #expect(error?.kind == .data)
                #expect(error?.message.hasPrefix(path.path) == true)
                #expect(error?.message.contains("\(side)x\(side)") == true, "\(String(describing: error))")
                if side == 12_000 {
                    #expect(error?.message.contains("over Throbber's limit") == true, "\(String(describing: error))")
                }
            }
        }
    }
}
