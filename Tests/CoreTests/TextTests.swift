import Foundation
import Testing

@testable import ThrobberKit

/// The small replacements for Foundation that keep Foundation out of the
/// executable, checked against Foundation itself (the tests may link it).
@Suite("Text and path helpers")
struct TextTests {
    /// Paths swift-corelibs-foundation handles as Apple's NSString does.
    /// (It crashes on one-character paths such as "a", a hazard the old
    /// `as NSString` calls carried, and gives "" for "//".)
    static let paths = [
        "/", "/ab", "/a/b", "ab/b/", "ab/b//", "/ab/", ".hidden", "dir/.hidden", "a.b.png", "/x/y.tar.gz", "x/.png",
        "a/b.c/d", "frames/0001.PNG", "../up.gif", "./here.webp", "ab.", "scratch..tiff", "/tmp/",
    ]

    @Test("PathText agrees with NSString's path methods", arguments: paths)
    func pathsLikeNSString(_ path: String) {
        let ns = path as NSString
        #expect(PathText.lastComponent(path) == ns.lastPathComponent)
        #expect(PathText.parent(path) == ns.deletingLastPathComponent)
        #expect(PathText.pathExtension(path) == ns.pathExtension)
        #expect(PathText.deletingExtension(path) == ns.deletingPathExtension)
    }

    @Test("PathText on the paths corelibs gets wrong, as Apple's NSString documents them")
    func edgePaths() {
        #expect(PathText.lastComponent("a") == "a" && PathText.parent("a") == "")
        #expect(PathText.lastComponent("") == "" && PathText.parent("") == "")
        #expect(PathText.lastComponent("//") == "/" && PathText.parent("//") == "/")
        #expect(PathText.lastComponent("scratch///") == "scratch")
        #expect(PathText.deletingExtension("scratch.bundle/") == "scratch")
        #expect(PathText.deletingExtension(".tiff") == ".tiff" && PathText.pathExtension(".tiff") == "")
    }

    @Test("cFormat writes what String(format:) writes, in any length")
    func formatLikeFoundation() {
        #expect(cFormat("%.2f", 3.14159) == "3.14")
        #expect(cFormat("%.1f", 9.96) == "10.0")
        #expect(cFormat("%g", 0.5) == "0.5")
        #expect(cFormat("%.4g", 123456.0) == "1.235e+05")
        #expect(cFormat("\\u%04x", UInt32(0x1f)) == "\\u001f")
        for value in [0.0, -1.5, 1e-7, 12345.678, 1e300] {
            #expect(cFormat("%.3f", value) == String(format: "%.3f", value))
        }
        // Longer than the first 64-byte buffer.
        let long = cFormat("%0200d|%.2f", 7, 2.5)
        #expect(long.count == 205 && long.hasSuffix("7|2.50") && long.hasPrefix("000"))
    }

    @Test("trimmedWhitespace drops spaces, tabs and newlines at both ends only")
    func trimming() {
        #expect(" \t 12 kB \n".trimmedWhitespace() == "12 kB")
        #expect("\n\n".trimmedWhitespace() == "")
        #expect("x".trimmedWhitespace() == "x")
    }
}
