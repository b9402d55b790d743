import Foundation
import TestSupport
import Testing

/// Byte order of UTF-8 names, written here independently of ThrobberKit.
func byteOrder(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

@Suite("Frame order")
struct OrderTests {
    /// Names whose natural order differs from their byte order, written in a
    /// shuffled order; the natural order is spelled out by hand.
    static let shuffled = [
        "f20.png", "f2.png", "f100.png", "f9.png", "f1.png", "f11.png", "f10.png", "F3.PNG", "f0010b.jpg",
    ]
    static let natural = [
        "F3.PNG", "f1.png", "f2.png", "f9.png", "f10.png", "f0010b.jpg", "f11.png", "f20.png", "f100.png",
    ]

    /// Frames named `names` in `folder`, plus files a folder read must skip.
    static func makeFolder(_ folder: URL, _ names: [String]) throws -> [String: URL] {
        let urls = try Pillow.makeFrames(Pillow.distinctFrames(names), in: folder)
        try Data("not a frame".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub.png"), withIntermediateDirectories: false)
        return Dictionary(uniqueKeysWithValues: zip(names, urls))
    }

    /// Encodes `args` and returns Pillow's hashes of the frames shown, one per input frame.
    static func shownFrames(_ args: [String], in dir: URL) throws -> [String] {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString).gif")
        let r = try Throbber.run(["encode"] + args + ["-o", out.path, "--delay", "10"])
        #expect(r.status == 0, "\(r.stderrText)")
        return try Pillow.decode(out).framesPerSlot(100) ?? []
    }

    @Test("a generated folder is read in natural order by default (f2 before f10), skipping non-images")
    func generatedFolderNaturalOrder() throws {
        try withTemporaryDirectory { dir in
            let files = try Self.makeFolder(dir.appendingPathComponent("in"), Self.shuffled)
            let expected = try Pillow.hashes(of: Self.natural.map { files[$0]! })
            #expect(Set(expected).count == expected.count, "test frames are not distinct")
            #expect(try Self.shownFrames([dir.appendingPathComponent("in").path], in: dir) == expected)
            #expect(
                try Self.shownFrames([dir.appendingPathComponent("in").path, "--sort", "natural"], in: dir) == expected)
        }
    }

    @Test("--sort name reads a folder in byte order of the names")
    func generatedFolderNameOrder() throws {
        try withTemporaryDirectory { dir in
            let files = try Self.makeFolder(dir.appendingPathComponent("in"), Self.shuffled)
            let names = Self.shuffled.sorted(by: byteOrder)
            #expect(
                names == [
                    "F3.PNG", "f0010b.jpg", "f1.png", "f10.png", "f100.png", "f11.png", "f2.png", "f20.png", "f9.png",
                ])
            let expected = try Pillow.hashes(of: names.map { files[$0]! })
            #expect(
                try Self.shownFrames([dir.appendingPathComponent("in").path, "--sort", "name"], in: dir) == expected)
        }
    }

    @Test("--glob PATTERN takes only the folder's files that match, in natural order")
    func globSelects() throws {
        try withTemporaryDirectory { dir in
            let names = ["a_2.png", "b_10.png", "a_10.png", "b_2.png", "b_1.png", "c.gif.png"]
            let files = try Self.makeFolder(dir.appendingPathComponent("in"), names)
            let expected = try Pillow.hashes(of: ["b_1.png", "b_2.png", "b_10.png"].map { files[$0]! })
            #expect(
                try Self.shownFrames([dir.appendingPathComponent("in").path, "--glob", "b_*"], in: dir) == expected)
            let withA = try Pillow.hashes(of: ["a_2.png", "a_10.png"].map { files[$0]! })
            #expect(
                try Self.shownFrames([dir.appendingPathComponent("in").path, "--glob", "a_?*.png"], in: dir) == withA)
        }
    }

    @Test("files named on the command line keep the order given, repeats included")
    func fileArgumentsKeepOrder() throws {
        try withTemporaryDirectory { dir in
            let f = try Self.makeFolder(dir.appendingPathComponent("in"), ["f1.png", "f2.png", "f10.png"])
            let given = [f["f10.png"]!, f["f1.png"]!, f["f2.png"]!, f["f1.png"]!]
            #expect(try Self.shownFrames(given.map(\.path), in: dir) == Pillow.hashes(of: given))
        }
    }

    @Test("folders and files mix: each folder expands in place, in natural order")
    func foldersAndFilesMix() throws {
        try withTemporaryDirectory { dir in
            let a = try Self.makeFolder(dir.appendingPathComponent("a"), ["x10.png", "x9.png"])
            let single = try Pillow.makeFrames([Pillow.Frame("single.png", color: [7, 7, 7, 255])], in: dir)[0]
            let args = [single.path, dir.appendingPathComponent("a").path + "/", single.path]
            let expected = try Pillow.hashes(of: [single, a["x9.png"]!, a["x10.png"]!, single])
            #expect(try Self.shownFrames(args, in: dir) == expected)
        }
    }
}

/// The real MJRefresh sequence: 60 Apple CgBI PNGs (which Pillow cannot read),
/// compared with the standard-PNG conversions in normalized/.
@Suite("Frame order of the MJRefresh CgBI frames", .needsFixtures, .tags(.slow))
struct MJRefreshOrderTests {
    /// Encodes `args`, then checks that at every 4 cs step of the loop the
    /// shown frame is closest to `expected[step]` (or to a reference that is
    /// practically identical to it: the sequence has repeated frames).
    func expectOrder(_ args: [String], expected refs: [URL], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.gif")
            let r = try Throbber.run(["encode"] + args + ["-o", out.path, "--fps", "25"])
            #expect(r.status == 0, "\(r.stderrText)", sourceLocation: sourceLocation)
            let match = try Pillow.match(out, against: refs, refsMatrix: true)
            let same = match.refs ?? []
            var step = 0
            for frame in match.frames {
                let steps = (frame.duration ?? 0) / 40
                #expect(
                    steps >= 1 && (frame.duration ?? 0) % 40 == 0, "duration \(String(describing: frame.duration))",
                    sourceLocation: sourceLocation)
                let best = frame.psnr.indices.max { frame.psnr[$0] < frame.psnr[$1] }!
                for s in step..<(step + max(steps, 1)) where s < refs.count {
                    #expect(
                        best == s || same[best][s] >= 60,
                        "step \(s) shows \(refs[best].lastPathComponent) (\(frame.psnr[best]) dB), expected \(refs[s].lastPathComponent) (\(frame.psnr[s]) dB)",
                        sourceLocation: sourceLocation)
                    #expect(
                        frame.psnr[s] >= 35, "step \(s) is a poor likeness: \(frame.psnr[s]) dB",
                        sourceLocation: sourceLocation)
                }
                step += max(steps, 1)
            }
            #expect(
                step == refs.count, "the GIF shows \(step) steps for \(refs.count) input frames",
                sourceLocation: sourceLocation)
        }
    }

    @Test("the MJRefresh folder is read in natural order: 0001 … 0009, 00010 … 00060, then the loading frames")
    func naturalOrder() throws {
        let anim = try (1...60).map { try Fixtures.mjNormalized($0) }
        let loading = try (1...3).map { try Fixtures.url("mjrefresh-dropdown_anim/dropdown_loading_0\($0)@2x.png") }
        try expectOrder([try Fixtures.url("mjrefresh-dropdown_anim").path], expected: anim + loading)
    }

    @Test("--sort name reads the MJRefresh frames in byte order: 00010 … 00019, 0001, 00020 …")
    func nameOrder() throws {
        let names = (1...60).map(Fixtures.mjFrameName).sorted(by: byteOrder)
        #expect(
            Array(names.prefix(12)) == (10...19).map(Fixtures.mjFrameName) + [
                "dropdown_anim__0001@2x.png", "dropdown_anim__00020@2x.png",
            ])
        let refs = try names.map { try Fixtures.url("mjrefresh-dropdown_anim/normalized/\($0)") }
        try expectOrder(
            [try Fixtures.url("mjrefresh-dropdown_anim").path, "--glob", Fixtures.mjAnimGlob, "--sort", "name"],
            expected: refs)
    }
}
