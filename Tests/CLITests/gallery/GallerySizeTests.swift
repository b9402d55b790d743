import Foundation
import TestSupport
import Testing

/// `throbber gallery DIR --size PX`: every loader's larger side is PX, in
/// the files (read by Pillow) and in the page's `<img>` sizes.
@Suite("gallery --size", .tags(.slow))
struct GallerySizeTests {
    /// A size no preset has by default, so the option must have acted.
    static let size = 40

    /// Each `<img>` of the page: its `src` and its width and height attributes.
    static func images(_ html: String) throws -> [(src: String, width: Int, height: Int)] {
        let regex = try NSRegularExpression(pattern: #"<img [^>]*src="([^"]+)" width="(\d+)" height="(\d+)""#)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
            let group = { (i: Int) in String(html[Range(m.range(at: i), in: html)!]) }
            return (group(1), Int(group(2))!, Int(group(3))!)
        }
    }

    @Test("--size 40: every GIF, APNG and WebP is 40 pixels on its larger side, and the page shows each at that size")
    func sizeReachesFilesAndPage() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("gallery")
            let r = try Throbber.run(["gallery", out.path, "--size", "\(Self.size)", "-q"])
            #expect(r.status == 0, "\(r.stderrText)")
            let sizes = try JSONDecoder().decode(
                [String: [Int]].self, from: Pillow.script("image_sizes.py", [out.path]))
            let presets = try Throbber.run(["presets"]).stdoutText.split(separator: "\n").compactMap {
                $0.split(separator: " ").first.map(String.init)
            }
            #expect(!presets.isEmpty)
            for name in presets {
                let files = ["\(name).gif", "\(name)-dark.gif", "\(name).png", "\(name).webp"]
                #expect(files.allSatisfy { sizes[$0] != nil }, "\(name): \(sizes.keys.sorted())")
            }
            for (name, size) in sizes.sorted(by: { $0.key < $1.key }) {
                #expect(size.max() == Self.size, "\(name) is \(size[0])x\(size[1])")
            }
            let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
            let images = try Self.images(html)
            #expect(images.count >= sizes.count, "\(images.count) <img> for \(sizes.count) files")
            for image in images {
                #expect(max(image.width, image.height) == Self.size, "\(image.src): \(image.width)x\(image.height)")
                if let file = sizes[image.src] {
                    #expect(
                        file == [image.width, image.height],
                        "\(image.src): file \(file), page \(image.width)x\(image.height)")
                }
            }
        }
    }
}
