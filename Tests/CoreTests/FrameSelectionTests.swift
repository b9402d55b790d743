import Testing

@testable import ThrobberKit

@Suite("--frames: which input frames, in which order")
struct FrameSelectionTests {
    /// 1-based positions picked from `count` frames.
    func picked(_ text: String, count: Int) throws -> [Int] {
        let selection = try #require(FrameSelection(parsing: text), "'\(text)' did not parse")
        return try selection.indices(count: count).map { $0 + 1 }
    }

    @Test("ranges, open ends, steps, backward ranges and lists pick 1-based positions in the order written")
    func picks() throws {
        #expect(try picked("1-5", count: 10) == [1, 2, 3, 4, 5])
        #expect(try picked("8-", count: 10) == [8, 9, 10])
        #expect(try picked("-3", count: 10) == [1, 2, 3])
        #expect(try picked("1-10:2", count: 10) == [1, 3, 5, 7, 9])
        #expect(try picked("1-:3", count: 10) == [1, 4, 7, 10])
        #expect(try picked("5-1", count: 10) == [5, 4, 3, 2, 1])
        #expect(try picked("10-1:4", count: 10) == [10, 6, 2])
        #expect(try picked("3,1,2", count: 3) == [3, 1, 2])
        #expect(try picked("1-2,1-2", count: 5) == [1, 2, 1, 2])
        #expect(try picked("7", count: 7) == [7])
    }

    @Test("a range running past the last frame stops there")
    func clipped() throws {
        #expect(try picked("4-100", count: 6) == [4, 5, 6])
        #expect(try picked("100-5", count: 6) == [6, 5])
    }

    @Test("a part that selects no frame is a usage error naming it and the frame count")
    func selectsNothing() throws {
        for text in ["11", "11-20", "1-5,12-"] {
            let selection = try #require(FrameSelection(parsing: text))
            let error = try #require(throws: ThrobberError.self) { try selection.indices(count: 10) }
            #expect(error.kind == .usage && error.field == .frames)
            #expect(error.message.contains("10 frames"), "\(error.message)")
        }
    }

    @Test(
        "malformed selections do not parse",
        arguments: [
            "", "0", "0-3", "1-3:0", "a", "1--3", "1-3:", ",1", "1,", "-", "1-2-3", "1:2:3", "+1", "1 -3", "1234567890",
        ])
    func malformed(_ text: String) {
        #expect(FrameSelection(parsing: text) == nil, "'\(text)' parsed")
    }
}
