import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Which files of a folder become frames, and in which order.
@Suite("Frame folders: order and selection")
struct FrameListTests {
    static let mjrefresh = "mjrefresh-dropdown_anim"

    @Test("natural order puts dropdown_anim__0001 … 0009 before 00010 … 00060 (numeric)", Fixtures.needed)
    func naturalOrderOfTheRealFolder() throws {
        let dir = try Fixtures.folder(Self.mjrefresh).path
        let files = try FrameList(sort: .natural, glob: "dropdown_anim__*").files(for: [dir])
        // The names are dropdown_anim__000<n>@2x.png for n = 1 … 60.
        let expected = (1...60).map { "\(dir)/dropdown_anim__000\($0)@2x.png" }
        #expect(files == expected)
    }

    @Test("name order is plain byte order: 00010 … 00019 sort before 0001@2x", Fixtures.needed)
    func byteOrderOfTheRealFolder() throws {
        let dir = try Fixtures.folder(Self.mjrefresh).path
        let files = try FrameList(sort: .name, glob: "dropdown_anim__*").files(for: [dir])
        let names = files.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(
            Array(names.prefix(11)) == (10...19).map { "dropdown_anim__000\($0)@2x.png" } + [
                "dropdown_anim__0001@2x.png"
            ])
        #expect(names.count == 60)
        #expect(names == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    @Test(
        "the glob selects: without it the folder's 63 PNGs are taken, the normalized/ subfolder is not", Fixtures.needed
    )
    func globSelects() throws {
        let dir = try Fixtures.folder(Self.mjrefresh).path
        let all = try FrameList().files(for: [dir])
        #expect(all.count == 63)
        #expect(!all.contains { $0.contains("normalized") })
        let loading = try FrameList(glob: "dropdown_loading_*").files(for: [dir])
        #expect(loading == (1...3).map { "\(dir)/dropdown_loading_0\($0)@2x.png" })
    }

    @Test(
        "a folder gives its .png/.apng/.jpg/.jpeg/.gif files (any case) in natural order; hidden files, other files and subfolders are left out"
    )
    func folderSelection() throws {
        try withTemporaryDirectory { dir in
            for name in ["f10.png", "f9.PNG", "f1.jpeg", "f2.jpg", ".f0.png", "notes.txt", "f3.gif"] {
                _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([0]))
            }
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("f4.png"), withIntermediateDirectories: false)
            let files = try FrameList().files(for: [dir.path])
            #expect(
                files.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                    "f1.jpeg", "f2.jpg", "f3.gif", "f9.PNG", "f10.png",
                ])
            let gifs = try FrameList(glob: "*.gif").files(for: [dir.path])
            #expect(gifs.map { URL(fileURLWithPath: $0).lastPathComponent } == ["f3.gif"])
        }
    }

    @Test("files named one by one keep the order they were given in, folders expand in place")
    func explicitFilesKeepTheirOrder() throws {
        try withTemporaryDirectory { dir in
            let sub = dir.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
            for path in [
                dir.appendingPathComponent("b.png"), dir.appendingPathComponent("a.png"),
                sub.appendingPathComponent("s2.png"), sub.appendingPathComponent("s10.png"),
            ] {
                _ = FileManager.default.createFile(atPath: path.path, contents: Data([0]))
            }
            let b = dir.appendingPathComponent("b.png").path
            let a = dir.appendingPathComponent("a.png").path
            let files = try FrameList().files(for: [b, sub.path, a])
            #expect(files == [b, sub.path + "/s2.png", sub.path + "/s10.png", a])
        }
    }

    @Test("a missing input, and a folder with nothing to take, are 'no input' errors naming them")
    func nothingToTake() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.appendingPathComponent("missing").path
            let e1 = throbberError { _ = try FrameList().files(for: [missing]) }
            #expect(e1?.kind == .noInput && e1?.message.hasPrefix(missing + ": ") == true, "\(String(describing: e1))")
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("a.txt").path, contents: Data([0]))
            let e2 = throbberError { _ = try FrameList().files(for: [dir.path]) }
            #expect(e2?.kind == .noInput && e2?.message.hasPrefix(dir.path + ": ") == true, "\(String(describing: e2))")
            let e3 = throbberError { _ = try FrameList(glob: "*.png").files(for: [dir.path]) }
            #expect(e3?.kind == .noInput && e3?.message.contains("*.png") == true, "\(String(describing: e3))")
        }
    }

    @Test(
        "natural order compares digit runs by value and breaks ties by bytes",
        arguments: [
            ("f9", "f10"), ("frame2", "frame10"), ("a2b9", "a2b10"), ("x007", "x7"), ("x07", "x7"),
            ("abc", "abd"), ("frame", "frame1"), ("img99z", "img100a"), ("9", "a"), ("A1", "a1"),
        ])
    func naturalOrderPairs(smaller: String, larger: String) {
        #expect(FrameSort.natural.areInIncreasingOrder(smaller, larger))
        #expect(!FrameSort.natural.areInIncreasingOrder(larger, smaller))
        #expect(!FrameSort.natural.areInIncreasingOrder(smaller, smaller))
    }

    @Test("name order is byte order, where f10 comes before f9")
    func nameOrderPairs() {
        #expect(FrameSort.name.areInIncreasingOrder("f10", "f9"))
        #expect(!FrameSort.name.areInIncreasingOrder("f9", "f10"))
        #expect(FrameSort.name.areInIncreasingOrder("B", "a"))  // 0x42 < 0x61
    }
}
