import FoundationEssentials
import Glibc
import ThrobberKit

/// Mismatches of frame outputs (GIF, APNG, WebP): both files are decoded and
/// the first frame that differs is described, and drawn with `--diff-dir`.
extension CheckCommand {
    /// Explains a mismatch by decoding both files, if the expected one is
    /// there, and writes the difference images to `diffDir`: the lines that
    /// say what was found, for the terminal and the JUnit report.
    static func explain(
        _ entry: Manifest.Entry, made: String, manifest: Manifest, paths: CheckPaths, diffDir: String?
    ) -> [String] {
        let expectedPath = manifest.resolve(entry.output)
        let vector = vectorFormat(entry)
        guard FileManager.default.fileExists(atPath: expectedPath) else {
            let what = vector == nil ? "pixels" : "bytes"
            return ["(no expected file at \(CheckReport.printable(expectedPath)) to compare \(what) with)"]
        }
        if let vector {
            return explainBytes(
                vector, entry: entry, expected: expectedPath, made: made, paths: paths, diffDir: diffDir)
        }
        do {
            let expected = try DecodedAnimation.read(expectedPath, streams: false)
            let actual = try DecodedAnimation.read(made)
            guard let d = AnimationDiff.compare(expected: expected, actual: actual) else {
                return ["the files differ in bytes but show the same frames, delays and loop count"]
            }
            let region = d.region.map { " within \($0)" } ?? ""
            var line =
                "first differing frame \(d.number): \(d.differingPixels) pixels differ\(region), largest channel difference \(d.largestChannelDifference)"
            if let note = d.note { line += " (\(note))" }
            guard let diffDir else { return [line] }
            do {
                return [line, try writeImages(d, entry: entry, paths: paths, diffDir: diffDir)]
            } catch {
                let e = error as? ThrobberError ?? ForeignError.converted(error)
                return [line, "cannot write difference images: \(e.message)"]
            }
        } catch let e as ThrobberError {
            return ["cannot compare pixels: \(e.message)"]
        } catch {
            return ["cannot compare pixels: \(ForeignError.converted(error).message)"]
        }
    }

    /// Writes the expected, actual and difference images of `d`'s frame
    /// into `diffDir`, unless one would replace a file an entry names or
    /// something not a regular file; the line that says which.
    private static func writeImages(_ d: AnimationDiff, entry: Manifest.Entry, paths: CheckPaths, diffDir: String)
        throws -> String
    {
        // The whole output path names the images, so a.gif and a.png
        // (or two folders' a.gif) do not overwrite each other.
        let stem = diffDir + "/" + entry.output.replacing("/", with: "_")
        let images = [("expected", d.expected), ("actual", d.actual), ("difference", d.difference)]
        for (suffix, _) in images {
            let image = "\(stem)-frame\(d.number)-\(suffix).png"
            if let what = try blocked(image, paths: paths) {
                return "not writing difference images: \(CheckReport.printable(image)) is \(what)"
            }
        }
        for (suffix, image) in images {
            let out = try OutputFile(path: "\(stem)-frame\(d.number)-\(suffix).png")
            try out.write(try PNGStillWriter.encode(image))
            try out.commit()
        }
        return "wrote \(CheckReport.printable(stem))-frame\(d.number)-{expected,actual,difference}.png"
    }

    /// What `file` is when writing it would replace a file an entry names
    /// or something not a regular file; nil when it may be written.
    static func blocked(_ file: String, paths: CheckPaths) throws -> String? {
        let resolved = try CheckPaths.resolve(file).path
        var st = stat()
        return paths.overwrites(resolved)
            ?? (stat(resolved, &st) == 0 && st.st_mode & S_IFMT != S_IFREG
                ? CheckPaths.describe(st.st_mode & S_IFMT) : nil)
    }
}
