import Foundation
import TestSupport
import Testing
import ThrobberKit

/// The input registry tells the kinds of input apart, and the encode plan
/// makes the settings an encode runs with from the user's settings and the
/// input's facts.
@Suite("Input registry and encode plan")
struct InputRegistryTests {
    static func kind(_ inputs: [String]) throws -> String {
        try InputRegistry.kind(of: InputPaths(inputs, list: FrameList())).name
    }

    static func writePNG(_ path: String) throws {
        let image = RGBAImage(width: 2, height: 2, fill: Color(r: 1, g: 2, b: 3))
        try Data(try PNGStillWriter.encode(image)).write(to: URL(fileURLWithPath: path))
    }

    @Test func tellsKindsApart() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("frames").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Self.writePNG(folder + "/1.png")
            let lottie = dir.appendingPathComponent("anim.json").path
            try Data(#"{"v":"5.5.2","fr":10,"ip":0,"op":10,"w":8,"h":8,"layers":[]}"#.utf8)
                .write(to: URL(fileURLWithPath: lottie))
            let fifo = dir.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(try Self.kind([folder]) == "frame files")
            #expect(try Self.kind([folder + "/1.png", folder + "/1.png"]) == "frame files")
            #expect(try Self.kind([lottie]) == "Lottie file")
            #expect(try Self.kind(["-"]) == "frame stream")
            #expect(try Self.kind([fifo]) == "frame stream")
            // A Lottie file among frames is refused, naming it.
            let error = throbberError {
                _ = try InputRegistry.open([lottie, folder + "/1.png"], format: .gif, settings: EncodeSettings())
            }
            #expect(error?.kind == .usage && error?.message == "\(lottie): a Lottie file must be the only input")
        }
    }

    /// `--from` for frames is a usage error, found before a missing folder
    /// is listed.
    @Test func clipTimesNeedAVideo() throws {
        var options = InputOptions()
        options.from = Rational(1)
        let error = throbberError {
            _ = try InputRegistry.open(
                ["/nonexistent/frames"], format: .gif, settings: EncodeSettings(), options: options)
        }
        #expect(error?.kind == .usage)
        #expect(
            error?.message.hasPrefix("--from and --to cut a video by time, and /nonexistent/frames is no video") == true
        )
    }

    static func input(_ timing: InputTiming, loop: Int? = nil, resized: Bool = false) -> OpenedInput {
        var input = OpenedInput(
            source: MemoryFrameSource([RGBAImage(width: 1, height: 1)]), kind: FrameFilesInput.self, timing: timing,
            loop: loop)
        input.resizedOnLoad = resized
        return input
    }

    @Test func planTakesTheInputsClock() {
        var settings = EncodeSettings()
        settings.timing.delay = 4
        settings.timing.retime = true
        settings.timing.speed = Rational(2)
        let own = EncodePlan(settings: settings, input: Self.input(.own), format: .gif, options: InputOptions())
        #expect(own.settings.timing.delay == nil && own.settings.timing.retime == false)
        #expect(own.settings.timing.speed == Rational(2))
        #expect(own.fpsResamples)
        // The user's settings are what they were.
        #expect(settings.timing.delay == 4 && settings.timing.retime)

        var plain = EncodeSettings()
        let stream = EncodePlan(
            settings: plain, input: Self.input(.rate(Rational(30000, 1001))), format: .gif, options: InputOptions())
        #expect(stream.settings.timing.fps == Rational(30000, 1001) && !stream.fpsResamples)
        plain.timing.retime = true
        plain.timing.fps = Rational(10)
        let retimed = EncodePlan(
            settings: plain, input: Self.input(.rate(Rational(30))), format: .gif, options: InputOptions())
        #expect(retimed.settings.timing.fps == Rational(10))
    }

    @Test func planTakesTheInputsLoopAndSize() {
        var settings = EncodeSettings()
        settings.loop = 3
        settings.transform.width = 20
        settings.transform.crop = PixelRect(x: 0, y: 0, width: 4, height: 4)
        var options = InputOptions()
        let looped = EncodePlan(
            settings: settings, input: Self.input(.settings, loop: 70_000, resized: true), format: .gif,
            options: options)
        // GIF's NETSCAPE count is 16 bits, and plays once more than it says.
        #expect(looped.settings.loop == 65536)
        #expect(looped.settings.transform.width == nil && looped.settings.transform.crop != nil)
        options.keepsInputLoop = false
        let asked = EncodePlan(
            settings: settings, input: Self.input(.settings, loop: 2), format: .gif, options: options)
        #expect(asked.settings.loop == 3 && asked.settings.transform.width == 20)
    }
}
