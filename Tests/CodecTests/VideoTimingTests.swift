import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Frame times, windows and the decoder's order independence, against
/// ffprobe's timestamps of clips made by the ffmpeg command.
@Suite("Video timing", VideoClips.needed)
struct VideoTimingTests {
    static let budget = MemoryBudget(limit: 1 << 30)

    @Test("a variable-frame-rate clip keeps ffprobe's timestamps, and has no frame rate")
    func variableRate() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "vfr.mkv",
                VideoClips.testsrc(rate: 10, seconds: "1") + [
                    "-vf", "settb=1/1000,setpts=N*100+40*eq(mod(N\\,3)\\,1)", "-fps_mode", "vfr", "-r", "1000",
                    "-c:v", "libx264",
                ])
            let probe = try VideoClips.frameTimes(path)
            #expect(Set(zip(probe.dropFirst(), probe).map { $0 - $1 }).count == 3, "uneven gaps: \(probe)")
            let file = try VideoFile(path: path, budget: Self.budget, threads: 1)
            #expect(file.frameStarts == probe.map { $0 - probe[0] })
            #expect(file.frameStarts.count == 10)
            #expect(file.info.frameRate == nil)
            #expect(file.info.frameCount == 10)
            // A window keeps the uneven times: the frame on screen at its start, then the ones starting inside it.
            let (from, to) = (Rational(15, 100), Rational(65, 100))
            let starts = probe.map { $0 - probe[0] }
            let inside = starts.filter { $0 > from && $0 < to }.map { $0 - from }
            let window = try VideoFile(path: path, from: from, to: to, budget: Self.budget, threads: 1)
            #expect(window.frameStarts == [0] + inside)
            #expect(window.windowLength == to - from)
            #expect(window.info.frameRate == nil)
        }
    }

    @Test("a 25 fps clip has frame rate 25 and lasts frames / 25 exactly")
    func constantRate() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "cfr.mp4", VideoClips.testsrc(seconds: "0.48") + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
            let file = try VideoFile(path: path, budget: Self.budget, threads: 1)
            #expect(file.info.frameRate == Rational(25))
            #expect(file.info.frameCount == 12)
            #expect(file.info.duration == Rational(12, 25))
            #expect(file.windowLength == Rational(12, 25))
            #expect(file.frameStarts == (0..<12).map { Rational(Int64($0), 25) })
            #expect(file.info.decoder == "h264")
            #expect(file.info.container == "QuickTime / MOV")
            #expect(file.info.codec.hasPrefix("H.264"))
        }
    }

    @Test("windows of a 60 s clip: the right frames and length, and one near the end reads only the packets near it")
    func windows() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "long.mp4",
                VideoClips.testsrc(rate: 10, seconds: "60") + [
                    "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-pix_fmt", "yuv420p",
                ])
            let whole = try VideoFile(path: path, budget: Self.budget, threads: 1)
            #expect(whole.frameStarts.count == 600)
            let end = try VideoFile(path: path, from: 55, to: 57, budget: Self.budget, threads: 1)
            #expect(end.frameStarts == (0..<20).map { Rational(Int64($0), 10) })
            #expect(end.windowLength == 2)
            #expect(end.packetsRead < 40, "read \(end.packetsRead) packets for a 2 s window")
            let between = try VideoFile(path: path, from: Rational(5505, 100), to: 56, budget: Self.budget, threads: 1)
            #expect(between.frameStarts.first == 0)
            #expect(between.frameStarts.dropFirst().first == Rational(5, 100))
            #expect(between.frameStarts.count == 10)
            #expect(between.windowLength == Rational(95, 100))
            let tail = try VideoFile(path: path, from: Rational(595, 10), budget: Self.budget, threads: 1)
            #expect(tail.frameStarts.count == 5)
            #expect(tail.windowLength == Rational(1, 2))
            // The window's frames decode to the same pixels as the same frames of the whole clip.
            let windowFrames = try VideoClips.decode(end)
            let source = VideoFrameSource(
                file: whole, frames: Array(550..<570), durations: Array(repeating: Rational(1, 10), count: 20))
            for i in 0..<20 { #expect(try source.frame(at: i) == windowFrames[i], "frame \(i) of the window") }
            #expect(source.name(at: 0) == "\(path) at 0:55.000")
        }
    }

    @Test("windows that start at or after the clip's end, or not before their end, are usage errors")
    func badWindows() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(dir, "short.mp4", VideoClips.testsrc() + ["-c:v", "libx264"])
            let after = throbberError { _ = try VideoFile(path: path, from: 1, budget: Self.budget, threads: 1) }
            #expect(after?.kind == .usage)
            #expect(after?.message.contains(path) == true)
            let reversed = throbberError {
                _ = try VideoFile(
                    path: path, from: Rational(3, 10), to: Rational(1, 10), budget: Self.budget, threads: 1)
            }
            #expect(reversed?.kind == .usage)
        }
    }

    @Test("the same pixels with one or two threads, forward, reversed or shuffled")
    func orderIndependent() throws {
        try withTemporaryDirectory { dir in
            let path = try VideoClips.make(
                dir, "bframes.mp4",
                VideoClips.testsrc("96x64", seconds: "1.2") + ["-c:v", "libx264", "-g", "8", "-bf", "3"])
            let one = try VideoFile(path: path, budget: Self.budget, threads: 1)
            let forward = try VideoClips.decode(one)
            #expect(forward.count == 30)
            var generator = SystemRandomNumberGenerator()
            let shuffled = Array(0..<30).shuffled(using: &generator)
            for jobs in [1, 2] {
                let file = try VideoFile(path: path, budget: Self.budget, threads: jobs)
                #expect(try VideoClips.decode(file, jobs: jobs) == forward, "\(jobs) threads, forward")
                #expect(try VideoClips.decode(file, jobs: jobs, order: (0..<30).reversed()) == forward, "reversed")
                #expect(try VideoClips.decode(file, jobs: jobs, order: shuffled) == forward, "shuffled \(shuffled)")
            }
        }
    }
}
