// swift-format-ignore-file
// (GettingStarted.md quotes this file line for line, laid out by hand for
// docc's narrow code column; the formatter would re-space it.)
// The code samples of the API reference's getting-started article
// (Sources/ThrobberKit/ThrobberKit.docc/GettingStarted.md), run and checked
// here. The article quotes this file: `articleQuotesThisFile` fails when a
// sample there is not, line for line, code in this file. scripts/make-docs
// also compiles the article's samples with only `import ThrobberKit`,
// outside this package.
//
// The samples are plain `import ThrobberKit` code: no @testable import in
// this file. Their output is checked with decoders that are not ThrobberKit:
// giflib (DecodedGIF) and the APNG spec decoder of Tests/tools
// (ReferenceAnimation).

import Foundation
import Testing
import TestSupport
import ThrobberKit

/// The built-in "dots" loader: a blue GIF 96 pixels wide.
func renderDots(to path: String) throws -> EncodeReport {
    guard let preset = PresetCatalog.named("dots") else {
        throw ThrobberError(.usage, "no preset named dots")
    }
    var options = PresetOptions()
    options.size = 96            // pixels, the larger side
    options.color = Color(parsing: "#0A84FF")
    let config = try preset.config(options)
    let job = try SceneJob(config: config, jobs: 2)

    // A temporary file beside `path` until commit().
    let output = try OutputFile(path: path)
    let report = try job.encode(to: output, format: .gif)
    try output.commit()
    return report
}

/// Renders a JSON config: GIF, or APNG for .png and .apng.
func renderConfig(_ file: String, to path: String) throws {
    let config = try ConfigDecoder.load(file: file)
    let ext = String(path.split(separator: ".").last ?? "")
    let format = AnimationFormat(fileExtension: ext) ?? .gif
    let job = try SceneJob(config: config, jobs: 2)

    let output = try OutputFile(path: path)
    _ = try job.encode(to: output, format: format)
    try output.commit()
}

/// Encodes a folder's images in natural order (frame2 before
/// frame10) as a GIF that loops forever.
func encodeFolder(
    _ folder: String, fps: Rational, to path: String
) throws -> EncodeReport {
    let files = try FrameList(sort: .natural)
        .files(for: [folder])
    let frames = try FileFrameSource(files: files)
    var settings = EncodeSettings()
    settings.timing.fps = fps
    settings.loop = 0            // 0 = forever, N = N times
    let gif = AnimationEncoder(
        format: .gif, settings: settings)

    let output = try OutputFile(path: path)
    let report = try gif.encode(frames, to: output)
    try output.commit()
    return report
}

/// Eight frames drawn in memory, a square sliding right,
/// each shown 5 centiseconds: a lossless APNG.
func encodeSquare(to path: String) throws -> EncodeReport {
    let blue = Color(r: 10, g: 132, b: 255)
    let square = RGBAImage(width: 8, height: 8, fill: blue)
    let frames = (0..<8).map { i in
        // A transparent canvas, the square at x = 3i.
        var canvas = RGBAImage(width: 32, height: 8)
        canvas.draw(square, at: 3 * i, 0, over: false)
        return canvas
    }
    let source = MemoryFrameSource(frames)
    var settings = EncodeSettings()
    settings.timing.delay = 5    // centiseconds per frame
    let apng = AnimationEncoder(
        format: .apng, settings: settings)

    let output = try OutputFile(path: path)
    let report = try apng.encode(source, to: output)
    try output.commit()
    return report
}

/// A failure as a command-line tool reports it: the message
/// and the exit status (70, EX_SOFTWARE, for errors that are
/// not ThrobberKit's). File errors name the file already; a
/// setting's error has `field`, to name it as your user did.
func failure(_ error: Error) -> (String, Int32) {
    guard let error = error as? ThrobberError else {
        return ("internal error: \(error)", 70)
    }
    let options: [SettingField: String] =
        [.fps: "--fps", .delay: "--delay", .loop: "--loop"]
    guard let field = error.field else {
        return (error.message, error.exitCode)
    }
    let name = options[field] ?? field.rawValue
    return ("\(name): \(error.message)", error.exitCode)
}

/// `encode FOLDER --fps N -o OUT.gif`: logs a line, returns
/// the exit status.
func encodeCommand(
    folder: String, fps: Rational, out: String,
    log: (String) -> Void
) -> Int32 {
    do {
        let report = try encodeFolder(
            folder, fps: fps, to: out)
        log("wrote \(out): \(report.frames) frames, "
            + "\(report.durationCentiseconds) cs")
        return 0
    } catch {
        let (message, status) = failure(error)
        log("error: \(message)")
        return status
    }
}

@Suite("Docs samples")
struct DocsSampleTests {
    /// Blue as giflib's palette entries are packed by DecodedGIF: R | G << 8 | B << 16.
    static let blueRGB: UInt32 = 0x0A | 0x84 << 8 | 0xFF << 16

    @Test func rendersTheDotsLoader() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("dots.gif").path
            let report = try renderDots(to: path)
            let gif = try DecodedGIF(path: path)
            // The dots preset is 120×40 points at scale 2; 96 px wide keeps
            // that shape. One cycle is 0.75 s, and it loops forever.
            #expect((gif.width, gif.height) == (96, 32))
            #expect(gif.totalDelay == 75)
            #expect(gif.netscapeLoop == 0)
            #expect(gif.frames.count > 1)
            #expect(gif.frames.contains { $0.drawnColors.contains(Self.blueRGB) }, "no #0A84FF pixel drawn")
            #expect((report.width, report.height, report.frames) == (96, 32, gif.frames.count))
            #expect(report.durationCentiseconds == 75)
        }
    }

    /// A 32-point ring arc at scale 2 turning 90° per 0.25 s step: one turn
    /// of the pattern is 4 steps = 1 s, sampled at 20 fps.
    static let spinnerConfig = """
        {"version": 1,
         "canvas": {"width": 32, "height": 32, "scale": 2},
         "timing": {"fps": 20},
         "layers": [{"arc": {"radius": 12, "start": 0, "end": 270, "width": 4, "cap": "round"},
                     "stroke": "#0A84FF",
                     "animate": [{"kind": "step", "property": "rotate", "from": 0, "by": 90}]}]}
        """

    @Test func rendersAConfigAsGIFAndAPNG() throws {
        try withTemporaryDirectory { dir in
            let config = dir.appendingPathComponent("spinner.json")
            try Data(Self.spinnerConfig.utf8).write(to: config)

            let gifPath = dir.appendingPathComponent("spinner.gif").path
            try renderConfig(config.path, to: gifPath)
            let gif = try DecodedGIF(path: gifPath)
            #expect((gif.width, gif.height) == (64, 64))
            #expect(gif.frames.count == 20)
            #expect(gif.frames.allSatisfy { $0.delay == 5 })

            let apngPath = dir.appendingPathComponent("spinner.png").path
            try renderConfig(config.path, to: apngPath)
            let apng = try ReferenceAnimation(.spec, path: apngPath)
            #expect((apng.width, apng.height) == (64, 64))
            #expect(apng.fractions == Array(repeating: Rational(1, 20), count: 20))
            #expect(apng.loop == 0)

        }
    }

    /// frame1, frame2, frame10: three solid 4×4 frames in a folder, named so
    /// that byte order would put frame10 second.
    static let folderColors: [(name: String, rgba: [UInt8])] = [
        ("frame1.png", [255, 0, 0, 255]), ("frame2.png", [0, 255, 0, 255]), ("frame10.png", [0, 0, 255, 255]),
    ]

    static func writeFolder(_ dir: URL) throws -> String {
        let folder = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, rgba) in folderColors {
            let image = RGBAImage(width: 4, height: 4, pixels: Array([[UInt8]](repeating: rgba, count: 16).joined()))
            try Data(try PNGStillWriter.encode(image)).write(to: folder.appendingPathComponent(name))
        }
        return folder.path
    }

    @Test func encodesAFolderInNaturalOrder() throws {
        try withTemporaryDirectory { dir in
            let folder = try Self.writeFolder(dir)
            let path = dir.appendingPathComponent("loader.gif").path
            let report = try encodeFolder(folder, fps: Rational(10), to: path)
            let gif = try DecodedGIF(path: path)
            #expect(gif.frames.count == 3 && report.frames == 3)
            #expect(gif.frames.map(\.delay) == [10, 10, 10])
            #expect(gif.netscapeLoop == 0)
            for (frame, expected) in zip(gif.frames, Self.folderColors) {
                expectPixels(frame.pixels, Array([[UInt8]](repeating: expected.rgba, count: 16).joined()), width: 4,
                             "\(expected.name)")
            }
        }
    }

    @Test func encodesFramesMadeInMemory() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("square.png").path
            let report = try encodeSquare(to: path)
            let apng = try ReferenceAnimation(.spec, path: path)
            #expect((apng.width, apng.height) == (32, 8))
            #expect(apng.fractions == Array(repeating: Rational(5, 100), count: 8))
            #expect(report.durationCentiseconds == 40)
            // Frame i: the square's 8 columns start at x = 3i, the rest is transparent.
            let expected = (0..<8).map { i in
                (0..<8).flatMap { _ in
                    (0..<32).flatMap { x -> [UInt8] in (3 * i..<3 * i + 8).contains(x) ? [10, 132, 255, 255] : [0, 0, 0, 0] }
                }
            }
            expectFrames(apng.frames, equal: expected, width: 32, "spec decoder")
        }
    }

    @Test func commandReportsSuccessAndExitStatuses() throws {
        try withTemporaryDirectory { dir in
            let folder = try Self.writeFolder(dir)
            let output = dir.appendingPathComponent("out.gif").path
            var log: [String] = []

            #expect(encodeCommand(folder: folder, fps: Rational(10), out: output) { log.append($0) } == 0)
            #expect(log == ["wrote \(output): 3 frames, 30 cs"])

            // A setting out of range: usage (64), named by the option.
            try Data("old".utf8).write(to: URL(fileURLWithPath: output))
            log = []
            #expect(encodeCommand(folder: folder, fps: Rational(60), out: output) { log.append($0) } == 64)
            #expect(log.count == 1 && log[0].hasPrefix("error: --fps: 60 fps is too fast for GIF"), "\(log)")
            // The failed run left the existing file alone and no temporary file behind.
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["frames", "out.gif"])

            // A missing input: no input (66), the message names it.
            let missing = dir.appendingPathComponent("missing").path
            log = []
            #expect(encodeCommand(folder: missing, fps: Rational(10), out: output) { log.append($0) } == 66)
            #expect(log == ["error: \(missing): no such file or folder"])
        }
    }

    @Test func configErrorsNameTheFileAndPath() throws {
        try withTemporaryDirectory { dir in
            let config = dir.appendingPathComponent("typo.json")
            try Data(Self.spinnerConfig.replacingOccurrences(of: "\"stroke\"", with: "\"strok\"").utf8).write(to: config)
            let error = try #require(throbberError { try renderConfig(config.path, to: dir.appendingPathComponent("x.gif").path) })
            let (message, status) = failure(error)
            #expect(status == 65)                                  // bad data
            #expect(error.field == nil)
            #expect(message.hasPrefix("\(config.path): layers[0]"), "\(message)")
            #expect(message.contains("strok"), "\(message)")
        }
    }

    /// The article shows code from this file and DocsInputSampleTests.swift
    /// only: each ```swift block of GettingStarted.md, compared line by
    /// line with leading spaces ignored, is a run of lines in one of them.
    @Test func articleQuotesThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let article = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ThrobberKit/ThrobberKit.docc/GettingStarted.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let sources = try [here, here.deletingLastPathComponent().appendingPathComponent("DocsInputSampleTests.swift")]
            .map { Self.lines(try String(contentsOf: $0, encoding: .utf8)) }
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```swift" { current = [] } else if line == "```", let block = current {
                blocks.append(block)
                current = nil
            } else if current != nil { current!.append(line) }
        }
        #expect(blocks.count >= 5, "GettingStarted.md has \(blocks.count) swift blocks")
        for block in blocks {
            let quoted = Self.lines(block.joined(separator: "\n"))
            let found = sources.contains { source in
                quoted.count <= source.count
                    && (0...(source.count - quoted.count)).contains { Array(source[$0..<$0 + quoted.count]) == quoted }
            }
            #expect(found, "GettingStarted.md quotes code that is in neither sample file:\n\(block.joined(separator: "\n"))")
        }
    }

    /// Lines with leading and trailing spaces removed.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
