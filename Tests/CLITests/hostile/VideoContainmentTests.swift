import Foundation
import TestSupport
import Testing

/// A video input is one local file (docs/reliability.md, "Videos"): FFmpeg
/// reads it through a descriptor Throbber opened, never through a name it
/// could parse as a URL, and only with the demuxers of single-file
/// containers; playlists, manifests, lists and session descriptions are
/// refused by their content, whatever their name.
@Suite("Hostile videos: one local file and nothing else")
struct VideoContainmentTests {
    /// An H.264 MP4 of testsrc2 at `size` (tests tell files apart by
    /// size), made under a plain name and moved to `url` (ffmpeg itself
    /// reads `pipe:0` as a protocol).
    @discardableResult
    static func clip(_ url: URL, size: String = "64x48") throws -> URL {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = folder.appendingPathComponent("made-\(size).mp4")
        try StreamSupport.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10:duration=0.4", "-c:v", "libx264", "-pix_fmt",
            "yuv420p", made.path,
        ])
        try FileManager.default.moveItem(at: made, to: url)
        return url
    }

    /// The folder `in/` holding `name` with `text`, beside `outside/`
    /// holding a real clip and a transport stream segment of it.
    static func bait(_ dir: URL, _ name: String, _ text: String) throws -> URL {
        let folder = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Files that name other files or addresses, and what the refusal calls them.
    static func baits(_ dir: URL, port: Int) throws -> [(name: String, text: String, what: String)] {
        let outside = dir.appendingPathComponent("outside")
        let secret = try clip(outside.appendingPathComponent("secret.mp4"))
        let segment = outside.appendingPathComponent("seg.ts")
        try StreamSupport.ffmpeg(["-i", secret.path, "-c", "copy", "-f", "mpegts", segment.path])
        let inside = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: inside.appendingPathComponent("link.mp4"), withDestinationURL: secret)
        try Hostile.mkfifo(inside.appendingPathComponent("pipe.mp4"))
        let hls = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n"
        return [
            ("clip.mp4", hls + "../outside/seg.ts\n#EXT-X-ENDLIST\n", "an HLS playlist"),
            (
                "absolute.m3u8", hls + "\(segment.path)\n#EXTINF:1.0,\nfile:\(segment.path)\n#EXT-X-ENDLIST\n",
                "an HLS playlist"
            ),
            ("live.mp4", hls + "../outside/seg.ts\n", "an HLS playlist"),
            ("remote.mp4", hls + "http://127.0.0.1:\(port)/seg.ts\n#EXT-X-ENDLIST\n", "an HLS playlist"),
            ("list.txt", "ffconcat version 1.0\nfile ../outside/secret.mp4\n", "an FFmpeg concat list"),
            ("links.txt", "ffconcat version 1.0\nfile link.mp4\n", "an FFmpeg concat list"),
            ("self.txt", "ffconcat version 1.0\nfile self.txt\nfile self.txt\n", "an FFmpeg concat list"),
            ("fifo.mkv", "ffconcat version 1.0\nfile pipe.mp4\n", "an FFmpeg concat list"),
            (
                "manifest.mpd",
                #"<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT1S"><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="64" height="48"><BaseURL>../outside/secret.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>"#,
                "a DASH manifest"
            ),
            (
                "session.mp4",
                "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video \(port) RTP/AVP 96\na=rtpmap:96 H264/90000\n",
                "an SDP session description"
            ),
        ]
    }

    @Test(
        "playlists, manifests, lists and SDP files, under any name, exit 65 at once saying what they are: nothing read, written or connected"
    )
    func referencesRefused() throws {
        try withTemporaryDirectory { dir in
            let listener = try LoopbackListener()
            for bait in try Self.baits(dir, port: listener.port) {
                let file = try Self.bait(dir, bait.name, bait.text)
                let before = try listing(file.deletingLastPathComponent())
                let out = file.deletingLastPathComponent().appendingPathComponent("out.gif")
                let start = Date()
                let binary = try Throbber.binary.get()
                let r = try Command.run(binary, ["encode", file.path, "-o", out.path], timeout: 20)
                expectFailure(r, status: 65, names: [file.path, bait.what, "not a video file"])
                #expect(Date().timeIntervalSince(start) < 5, "\(bait.name) took too long")
                let info = try Command.run(binary, ["info", file.path], timeout: 20)
                expectFailure(info, status: 65, names: [file.path, bait.what])
                #expect(try listing(file.deletingLastPathComponent()) == before, "\(bait.name) left a file")
                try FileManager.default.removeItem(at: file)
            }
            #expect(listener.connections() == 0, "a run connected to 127.0.0.1")
        }
    }

    @Test("a raw H.264 or HEVC stream, which has no frame times, is refused with the command that wraps it")
    func rawStreams() throws {
        try withTemporaryDirectory { dir in
            for (codec, name, format) in [("libx264", "H.264", "h264"), ("libx265", "HEVC", "hevc")] {
                let raw = dir.appendingPathComponent("clip.\(format)")
                try StreamSupport.ffmpeg([
                    "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=0.3", "-c:v", codec, "-f", format,
                    raw.path,
                ])
                let r = try Throbber.run(["encode", raw.path, "-o", dir.appendingPathComponent("o.gif").path])
                expectFailure(r, status: 65, names: [raw.path, "a raw \(name) stream", "-c copy clip.mkv"])
                #expect(try listing(dir) == [raw.lastPathComponent])
                try FileManager.default.removeItem(at: raw)
            }
        }
    }

    @Test(
        "names that read as URLs are only names: http:/…, subfile,…:, pipe:0 and a time with colons name local files"
    )
    func namesAreNames() throws {
        try withTemporaryDirectory { dir in
            let listener = try LoopbackListener()
            let outside = try Self.clip(dir.appendingPathComponent("elsewhere/x.mp4"), size: "32x24")
            let names = [
                "http:/127.0.0.1:\(listener.port)/x.mp4", "subfile,,start,0,end,0,,:\(outside.path)",
                "2024-01-01T12:30:00.mp4", "pipe:0",
            ]
            for name in names {
                let local = try Self.clip(
                    dir.appendingPathComponent("here").appendingPathComponent(name), size: "48x36")
                let out = dir.appendingPathComponent("out.gif")
                let r = try Throbber.run(
                    ["encode", name, "-o", out.path, "-q"], in: dir.appendingPathComponent("here"))
                #expect(r.status == 0, "\(name): \(r.stderrText)")
                // The GIF's logical screen: the local clip is 48x36, the one elsewhere 32x24.
                let screen = [UInt8](try Data(contentsOf: out))[6..<10]
                #expect(Array(screen) == [48, 0, 36, 0], "\(name) was not the local 48x36 clip")
                try FileManager.default.removeItem(at: local)
                try FileManager.default.removeItem(at: out)
                // Gone, the name is a missing file: FFmpeg is never asked to open it.
                let missing = try Throbber.run(
                    ["encode", name, "-o", out.path], in: dir.appendingPathComponent("here"), stdin: outside)
                expectFailure(missing, status: 66, names: [name, "no such file"])
            }
            #expect(listener.connections() == 0, "a run connected to 127.0.0.1")
        }
    }

    @Test("check runs a manifest's video entry within its folder: a playlist naming a file outside is refused")
    func checkContainment() throws {
        try withTemporaryDirectory { dir in
            let outside = try Self.clip(dir.appendingPathComponent("outside/secret.mp4"))
            let project = dir.appendingPathComponent("project")
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n\(outside.path)\n#EXT-X-ENDLIST\n"
            try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
            try Data(playlist.utf8).write(to: project.appendingPathComponent("clip.mp4"))
            let manifest = project.appendingPathComponent("hashes.json")
            let entry =
                #"{"encode": ["clip.mp4"], "output": "clip.gif", "sha256": "\#(String(repeating: "0", count: 64))"}"#
            try Data(#"{"entries": [\#(entry)]}"#.utf8).write(to: manifest)
            let r = try Throbber.run(["check", manifest.path])
            #expect(r.status == 1)
            #expect(r.stdoutText.contains("FAILED  clip.gif: cannot be made: "), "\(r.stdoutText)")
            #expect(r.stdoutText.contains("an HLS playlist, not a video file"), "\(r.stdoutText)")
            #expect(try listing(project) == ["clip.mp4", "hashes.json"])
        }
    }
}
