import Foundation
import TestSupport
import Testing

/// `throbber info` on SVG and Lottie files: what Python's own XML, JSON
/// and zip readers find in the same files.
@Suite("info SVG and Lottie: size, timing and maker")
struct VectorInfoTests {
    private struct SVGInfo: Decodable {
        var format: String
        var width: String?
        var height: String?
        var viewBox: String?
        var title: String?
        var generator: String?
        var cssAnimations: Int
        var smilAnimations: Int
        var durationsMs: [Double]
        var durationMs: Double?
        var frameRate: String?
        var compressed: Bool
    }

    private struct LottieInfo: Decodable {
        var format: String
        var width: Int
        var height: Int
        var frameRate: String
        var frameCount: Int
        var durationMs: Double
        var version: String?
        var generator: String?
        var manifestVersion: String?
    }

    private func info<T: Decodable>(_ url: URL, as: T.Type) throws -> T {
        let r = try Throbber.run(["info", url.path, "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: r.stdout)
    }

    /// Runs a Python script with `arguments`; its standard output as JSON.
    private func python(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let r = try Command.run(Pillow.python, ["-c", script] + arguments)
        guard r.status == 0, let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
            throw HarnessError("python failed: \(r.stderrText)")
        }
        return object
    }

    /// ElementTree's reading of an SVG: the root's size attributes, the
    /// title, and the duration of each CSS animation (the first time of
    /// each `animation` shorthand, outside the reduced-motion block).
    static let svgScript = """
        import json, re, sys, hashlib
        import xml.etree.ElementTree as ET
        text = open(sys.argv[1], encoding="utf-8").read()
        root = ET.fromstring(text)
        ns = "{http://www.w3.org/2000/svg}"
        title = root.find(ns + "title")
        style = "".join(s.text or "" for s in root.iter(ns + "style"))
        times = []
        for decl in re.findall(r"animation:([^;}]*)", style):
            for part in decl.split(","):
                t = [w for w in part.split() if re.fullmatch(r"-?[0-9.]+m?s", w)]
                if t:
                    times.append(float(t[0][:-2]) / 1000 if t[0].endswith("ms") else float(t[0][:-1]))
        mark = root.get("class")
        held = text.replace(mark, "\\x01").encode("utf-8")
        print(json.dumps({"width": root.get("width"), "height": root.get("height"),
            "viewBox": root.get("viewBox"), "title": title.text if title is not None else None,
            "times": times, "signed": hashlib.sha256(held).hexdigest()[:8] == mark[1:]}))
        """

    @Test("an SVG Throbber wrote: its size, title and CSS durations as ElementTree reads them, made by Throbber")
    func throbberSVG() throws {
        try withTemporaryDirectory { dir in
            let svg = dir.appendingPathComponent("ring.svg")
            let made = try Throbber.run(["preset", "ring", "-o", svg.path, "-q"])
            #expect(made.status == 0, "\(made.stderrText)")
            let py = try python(Self.svgScript, [svg.path])
            let i = try info(svg, as: SVGInfo.self)
            #expect(i.format == "svg" && i.frameRate == nil && !i.compressed)
            #expect(i.width == py["width"] as? String && i.height == py["height"] as? String)
            #expect(i.viewBox == py["viewBox"] as? String && i.title == py["title"] as? String)
            let times = ((py["times"] as? [NSNumber]) ?? []).map { ($0.doubleValue * 1000).rounded() }
            #expect(i.cssAnimations == times.count && !times.isEmpty, "\(times)")
            #expect(i.durationsMs == Array(Set(times)).sorted())
            #expect(py["signed"] as? Bool == true && i.generator == "Throbber")
            let text = try Throbber.run(["info", svg.path])
            #expect(text.stdoutText.contains("SVG \(i.width!)x\(i.height!)"), "\(text.stdoutText)")
            #expect(text.stdoutText.contains("made by    Throbber"), "\(text.stdoutText)")
            // Edited by hand, it no longer carries Throbber's hash of its text.
            let edited = dir.appendingPathComponent("edited.svg")
            try String(decoding: try Data(contentsOf: svg), as: UTF8.self)
                .replacingOccurrences(of: "<title>", with: "<title>Edited ").write(
                    to: edited, atomically: true, encoding: .utf8)
            #expect(try info(edited, as: SVGInfo.self).generator == nil)
        }
    }

    @Test("a Lottie JSON and a dotLottie Throbber wrote: w, h, fr, ip, op, v and the manifest as Python reads them")
    func throbberLottie() throws {
        try withTemporaryDirectory { dir in
            let json = dir.appendingPathComponent("ring.json")
            let archive = dir.appendingPathComponent("ring.lottie")
            for out in [json, archive] {
                #expect(try Throbber.run(["preset", "ring", "-o", out.path, "-q"]).status == 0)
            }
            let script = """
                import json, sys, zipfile
                z = zipfile.ZipFile(sys.argv[2])
                m = json.loads(z.read("manifest.json"))
                a = json.loads(z.read("a/%s.json" % m["animations"][0]["id"]))
                d = json.load(open(sys.argv[1]))
                print(json.dumps({"plain": d, "manifest": m, "packed": a}))
                """
            let py = try python(script, [json.path, archive.path])
            for (url, key) in [(json, "plain"), (archive, "packed")] {
                let d = try #require(py[key] as? [String: Any])
                let i = try info(url, as: LottieInfo.self)
                func number(_ key: String) -> Double { (d[key] as? NSNumber)?.doubleValue ?? .nan }
                let (fr, ip, op) = (number("fr"), number("ip"), number("op"))
                #expect((Double(i.width), Double(i.height)) == (number("w"), number("h")))
                #expect(Double(i.frameRate) == fr && i.frameCount == Int(op) - Int(ip))
                #expect(abs(i.durationMs - (op - ip) / fr * 1000) < 0.001)
                #expect(i.version == d["v"] as? String)
            }
            let packed = try info(archive, as: LottieInfo.self)
            let manifest = try #require(py["manifest"] as? [String: Any])
            #expect(packed.format == "dotlottie" && packed.generator == manifest["generator"] as? String)
            #expect(packed.manifestVersion == manifest["version"] as? String)
            #expect(try info(json, as: LottieInfo.self).format == "lottie")
        }
    }

    @Test("a foreign SVG: SMIL durations, a generator comment, a DOCTYPE's entities left unexpanded, gzip")
    func foreignSVG() throws {
        try withTemporaryDirectory { dir in
            // Nine nested entities would expand to 10^9 "lol"s: nothing is expanded.
            var entities = "<!ENTITY lol0 \"lol\">"
            for k in 1...9 { entities += "<!ENTITY lol\(k) \"" + String(repeating: "&lol\(k - 1);", count: 10) + "\">" }
            let text = """
                <?xml version="1.0"?>
                <!-- Generator: Sketchy 2.1 -->
                <!DOCTYPE svg [\(entities)]>
                <svg xmlns="http://www.w3.org/2000/svg" width="10cm" height="5cm" viewBox="0 0 100 50">
                <title>Dots &amp; &lol9;</title>
                <circle r="4"><animate attributeName="r" dur="0.8s" values="4;8;4" repeatCount="indefinite"/></circle>
                <rect width="4" height="4"><animateTransform attributeName="transform" type="rotate" dur="00:01.2"
                 repeatCount="indefinite"/><set attributeName="x" to="3" begin="1s"/></rect>
                </svg>
                """
            let svg = dir.appendingPathComponent("foreign.svg")
            try text.write(to: svg, atomically: true, encoding: .utf8)
            let i = try info(svg, as: SVGInfo.self)
            #expect(i.width == "10cm" && i.height == "5cm" && i.viewBox == "0 0 100 50")
            #expect(i.title == "Dots & &lol9;" && i.generator == "Sketchy 2.1")
            #expect(i.smilAnimations == 3 && i.cssAnimations == 0)
            // 0.8 s and 1.2 s are both back at their start every 2.4 s.
            #expect(i.durationsMs == [800, 1200] && i.durationMs == 2400)
            let gz = dir.appendingPathComponent("foreign.svgz")
            let zipped = try Command.run(URL(fileURLWithPath: "/bin/gzip"), ["-c", svg.path])
            try zipped.stdout.write(to: gz)
            let packed = try info(gz, as: SVGInfo.self)
            #expect(packed.compressed && packed.durationsMs == i.durationsMs && packed.title == i.title)
        }
    }

    @Test("a file info does not read: exit 65, and the message lists what it reads")
    func refusal() throws {
        try withTemporaryDirectory { dir in
            for (name, body) in [("page.html", "<html><body>hi</body></html>"), ("notes.txt", "just words\n")] {
                let url = dir.appendingPathComponent(name)
                try body.write(to: url, atomically: true, encoding: .utf8)
                let r = try Throbber.run(["info", url.path])
                expectFailure(r, status: 65, names: [name, "GIF", "APNG", "WebP", "SVG", "Lottie", "MP4"])
            }
        }
    }
}
