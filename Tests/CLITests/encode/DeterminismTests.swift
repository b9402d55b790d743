import Foundation
import TestSupport
import Testing

/// Output bytes must not depend on threads, OpenMP, runs or paths
/// (docs/architecture.md and README, determinism). The MJRefresh frames have too many
/// colors for one palette, so they go through libimagequant.
@Suite("Deterministic output bytes", .needsFixtures, .tags(.slow))
struct DeterminismTests {
    /// Encodes the 60 MJRefresh frames and returns the output bytes.
    static func encode(
        input: String? = nil, output: String? = nil, extra: [String] = [],
        environment: [String: String?] = [:], in cwd: URL? = nil, dir: URL
    ) throws -> Data {
        let folder = try input ?? Fixtures.url("mjrefresh-dropdown_anim").path
        let out = output ?? dir.appendingPathComponent("out-\(UUID().uuidString).gif").path
        let r = try Throbber.run(
            ["encode", folder, "--glob", Fixtures.mjAnimGlob, "-o", out] + extra,
            environment: environment, in: cwd)
        #expect(r.status == 0, "\(r.stderrText)")
        let path =
            out.hasPrefix("/")
            ? out
            : (cwd ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(out).path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 1000 && bytes.prefix(6) == Data("GIF89a".utf8))
        return bytes
    }

    @Test("two identical runs write identical bytes")
    func repeatable() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            #expect(try Self.encode(dir: dir) == Self.encode(dir: dir))
        }
    }

    @Test(
        "--jobs 1, 2 and 5 write identical bytes",
        arguments: [["--quality", "70"], [], ["--width", "61", "--frames", "1-:3", "--reverse", "--speed", "1.5"]])
    func jobs(_ extra: [String]) throws {
        try withTemporaryDirectory { dir in
            let one = try Self.encode(extra: extra + ["--jobs", "1"], dir: dir)
            #expect(try Self.encode(extra: extra + ["--jobs", "2"], dir: dir) == one)
            #expect(try Self.encode(extra: extra + ["--jobs", "5"], dir: dir) == one)
        }
    }

    @Test("OMP_NUM_THREADS=1 and OMP_NUM_THREADS=2 write identical bytes")
    func openMPThreads() throws {
        try withTemporaryDirectory { dir in
            let one = try Self.encode(environment: ["OMP_NUM_THREADS": "1"], dir: dir)
            let two = try Self.encode(environment: ["OMP_NUM_THREADS": "2"], dir: dir)
            let unset = try Self.encode(environment: ["OMP_NUM_THREADS": nil], dir: dir)
            #expect(one == two)
            #expect(one == unset)
        }
    }

    @Test("relative paths from one working directory and absolute paths from another write identical bytes")
    func workingDirectory() throws {
        try withTemporaryDirectory { dir in
            let fixtures = Fixtures.root
            let absolute = try Self.encode(output: dir.appendingPathComponent("abs.gif").path, in: dir, dir: dir)
            let relative = try Self.encode(
                input: "mjrefresh-dropdown_anim",
                output: dir.appendingPathComponent("rel.gif").path, in: fixtures, dir: dir)
            let relativeOut = try Self.encode(output: "rel2.gif", in: dir, dir: dir)
            #expect(absolute == relative)
            #expect(absolute == relativeOut)
        }
    }

    @Test("generated lossless frames: identical bytes for --jobs 1 and --jobs 2")
    func losslessJobs() throws {
        try withDistinctFrames(30) { (folder: URL, _: [String]) throws in
            let a = folder.deletingLastPathComponent().appendingPathComponent("a.gif")
            let b = folder.deletingLastPathComponent().appendingPathComponent("b.gif")
            #expect(try Throbber.run(["encode", folder.path, "-o", a.path, "--jobs", "1"]).status == 0)
            #expect(try Throbber.run(["encode", folder.path, "-o", b.path, "--jobs", "2"]).status == 0)
            #expect(try Data(contentsOf: a) == Data(contentsOf: b))
        }
    }
}
