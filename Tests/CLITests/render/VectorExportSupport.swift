import Foundation
import TestSupport
import Testing

/// Helpers for the vector export tests: the files read back by Python's own
/// parsers (xml.etree for SVG, json for Lottie), GIF timing read by Pillow,
/// and the small inputs the refusals need.
enum VectorKit {
    /// What Python's parsers read from a vector file: for SVG the root tag
    /// and its width and height; for Lottie the top-level keys and values.
    struct Parsed: Decodable {
        var kind: String
        /// SVG: the root element's tag, without its namespace.
        var root: String?
        var width: Double?
        var height: Double?
        /// Lottie: the top-level keys present.
        var keys: [String]?
        var fr: Double?
        var ip: Double?
        var op: Double?
        var layers: Int?

        /// The Lottie loop in seconds.
        var seconds: Double? { fr.flatMap { fr in op.flatMap { op in ip.map { (op - $0) / fr } } } }
    }

    static let parser = """
        import sys, json, xml.etree.ElementTree as ET
        path, kind = sys.argv[1], sys.argv[2]
        if kind == "svg":
            root = ET.parse(path).getroot()
            tag = root.tag.split("}")[-1]
            num = lambda v: float(v) if v is not None else None
            print(json.dumps({"kind": "svg", "root": tag, "width": num(root.get("width")),
                              "height": num(root.get("height"))}))
        else:
            d = json.load(open(path, encoding="utf-8"))
            print(json.dumps({"kind": "lottie", "keys": sorted(d.keys()), "fr": d.get("fr"), "ip": d.get("ip"),
                              "op": d.get("op"), "width": d.get("w"), "height": d.get("h"),
                              "layers": len(d.get("layers", []))}))
        """

    /// Parses `file` as `kind` ("svg" or "lottie") with Python's own parsers.
    static func parse(_ file: URL, as kind: String) throws -> Parsed {
        let r = try Command.run(Pillow.python, ["-c", parser, file.path, kind])
        guard r.status == 0 else { throw HarnessError("Python cannot parse \(file.path): \(r.stderrText)") }
        return try JSONDecoder().decode(Parsed.self, from: r.stdout)
    }

    /// The total duration of a GIF in seconds, as Pillow reads its delays.
    static func gifSeconds(_ file: URL) throws -> Double {
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            total = 0
            for i in range(im.n_frames):
                im.seek(i)
                total += im.info.get("duration", 0)
            print(total / 1000)
            """
        let r = try Command.run(Pillow.python, ["-c", script, file.path])
        guard r.status == 0, let s = Double(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("Pillow cannot read \(file.path): \(r.stderrText)")
        }
        return s
    }

    /// A tiny Lottie animation written by hand: a red bar turning once a second.
    static let tinyLottie = """
        {"v":"5.7.0","fr":25,"ip":0,"op":25,"w":20,"h":20,"layers":[{"ty":4,"ind":1,"ip":0,"op":25,"st":0,
         "ks":{"o":{"a":0,"k":100},"p":{"a":0,"k":[10,10]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},
          "r":{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":25,"s":[360]}]}},
         "shapes":[{"ty":"rc","p":{"a":0,"k":[0,-5]},"s":{"a":0,"k":[4,8]},"r":{"a":0,"k":0}},
          {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}
        """

    /// A 700×700 PNG of random pixels (about 1.9 MB: noise does not
    /// compress), made by Pillow in `dir`.
    static func noisePNG(in dir: URL, name: String = "noise.png") throws -> URL {
        let file = dir.appendingPathComponent(name)
        let script = """
            import os, sys
            from PIL import Image
            Image.frombytes("RGBA", (700, 700), os.urandom(700 * 700 * 4)).save(sys.argv[1])
            """
        let r = try Command.run(Pillow.python, ["-c", script, file.path])
        guard r.status == 0 else { throw HarnessError("Pillow: \(r.stderrText)") }
        return file
    }

    /// The files in `dir`, sorted.
    static func listing(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }
}
