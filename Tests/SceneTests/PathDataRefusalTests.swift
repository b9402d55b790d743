import Testing

@testable import ThrobberScene

/// The message for a number out of range.
private let number = "a number is out of range (more than 100000 either way)"
/// The message for a point out of range.
private let coordinate = "a coordinate is out of range (more than 100000 points either way)"

/// SVG path data refused: every error with its character offset and message, the ranges and the limits,
/// and how fast a long string is refused.
@Suite("path data: refusals")
struct PathDataRefusalTests {
    /// Why `d` is refused, nil when it is not.
    static func failure(_ d: String) -> PathData.Failure? { PathDataTests.failure(d) }

    /// The geometry of `d`.
    static func parse(_ d: String) throws -> PathGeometry { try PathData.parse(d) }

    @Test(
        "every refusal names its character offset and what was expected",
        arguments: [
            ("", 0, "path data is empty"),
            (" \t\n ", 0, "path data is empty"),
            ("L 1 1", 0, "path data must start with M or m"),
            ("  10 10", 2, "path data must start with M or m"),
            ("M 10 10 C 20", 12, "expected a number after C"),
            ("M0 0 L 5 x", 9, "expected a number after L, found \"x\""),
            ("M0 0 l 5 5 x", 11, "expected a command letter, found \"x\""),
            ("M0 0 L NaN 1", 7, "expected a number after L, found \"N\""),
            ("M0 0 L1,,2", 8, "expected a number after L, found \",\""),
            ("M0 0 L1 2,", 10, "expected a number after L"),
            ("M0 0 L,1 2", 6, "expected a number after L, found \",\""),
            ("M0 0 L-", 7, "expected a number after L"),
            ("M0 0 L .x", 8, "expected a number after L, found \"x\""),
            ("M0 0 L1e 2", 8, "expected a digit in the exponent after e"),
            ("M0 0 Z 5", 7, "expected a command letter, found \"5\""),
            ("M0 0 B 5", 5, "expected a command letter, found \"B\""),
            ("M0 0 A 1 1 0 2 0 5 5", 13, "an arc flag is 0 or 1"),
            ("M0 0 A 1 1 0 0", 14, "an arc flag is 0 or 1"),
            ("M0 0 L 1e400 0", 7, number),
            ("M0 0 L 1 -1e400", 9, number),
            ("M 100001 0", 2, number),
            ("M0 0 A1e300 1 0 0 1 5 5", 6, number),
            ("M99999 0 l2 0", 9, coordinate),
            ("M0 0 L1 1 m99999 99999 m2 0", 23, coordinate),
            ("M0 0 Q0 -100000 0 5 T0 10", 20, coordinate),
            // The arc center of flags 0 0 is (190000, 0.5); of 0 1, (-10000, 0.5).
            ("M90000 0 A100000 100000 0 0 0 90000 1", 9, coordinate),
            ("M0 0 L1 1 é", 10, "expected a command letter, found \"é\""),
            ("M0 0\r\nL 5 x", 9, "expected a number after L, found \"x\""),
            ("M0 0\r\nL1 1\r\nL 5 x", 14, "expected a number after L, found \"x\""),
            ("M0 0 L1 1 x\u{301} 5", 10, "expected a command letter, found \"x\u{301}\""),
        ])
    func refusals(d: String, offset: Int, message: String) {
        #expect(Self.failure(d) == PathData.Failure(offset: offset, message: message))
    }

    @Test("odd arcs are refused or made of finite points, never NaN")
    func oddArcs() throws {
        let odd = [
            "M0 0 A1e-320 1e-320 0 0 1 100 0", "M0 0 A1e-320 1 0 0 1 100 0", "M0 0 A1 1e-320 0 0 1 100 0",
            "M0 0 A1e5 1e-5 45 1 0 1e-9 0", "M0 0 A5 5 1e5 0 1 1e-200 0", "M0 0 A1e5 1e5 -1e5 1 1 1e-320 1e-320",
            "M-1e5 -1e5 A1e5 1e5 0 1 0 1e5 1e5", "M0 0 A1e-5 1e5 33 1 1 1e5 -1e5",
        ]
        for d in odd {
            guard let g = try? Self.parse(d) else { continue }
            let points = g.subpaths.flatMap { [$0.start] + $0.segments.flatMap { [$0.c1, $0.c2, $0.to] } }
            #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(d)")
            #expect(g.segmentCount == 4)
        }
        #expect(try Self.parse("M0 0 A1e-320 1e-320 0 0 1 100 0").segmentCount == 4)
    }

    @Test("the ranges' edges are accepted: 100000 either way, and its arc with the center inside")
    func rangeEdges() throws {
        #expect(try Self.parse("M100000 -100000 L-1e5 +1E5").segmentCount == 1)
        #expect(try Self.parse("M90000 0 A100000 100000 0 0 1 90000 1").segmentCount == 4)
    }

    @Test("20000 segments are a path; 25000 L commands are refused at the 20001st, quickly")
    func segmentLimit() throws {
        let most = "M0 0" + String(repeating: "L1 1", count: 20_000)
        #expect(try Self.parse(most).segmentCount == 20_000)
        let start = ContinuousClock.now
        let failure = Self.failure("M0 0" + String(repeating: "L1 1", count: 25_000))
        #expect(failure == PathData.Failure(offset: 4 + 20_000 * 4, message: "too many segments (more than 20000)"))
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(Self.failure("M0 0" + String(repeating: "A1 1 0 0 1 1 1", count: 5_001))?.offset == 4 + 5_000 * 14)
        #expect(
            Self.failure(String(repeating: "M0 0", count: 20_001))?.message == "too many subpaths (more than 20000)")
        #expect(Self.failure("M0 0" + String(repeating: "Z", count: 30_000))?.offset == 4 + 20_000)
    }

    @Test("a million-character string and a 4 MB one are refused quickly")
    func longStrings() throws {
        let start = ContinuousClock.now
        #expect(Self.failure("M0 0 L" + String(repeating: "1 ", count: 500_000))?.offset == 5)
        #expect(Self.failure("M" + String(repeating: "1", count: 1_000_000))?.offset == 1)
        let spaces = "M0 0" + String(repeating: " ", count: 4_000_000) + "x"
        #expect(
            Self.failure(spaces)
                == PathData.Failure(offset: 4_000_004, message: "expected a command letter, found \"x\""))
        #expect(Self.failure("M0 0 L" + String(repeating: "9", count: 4_000_000))?.offset == 6)
        #expect(ContinuousClock.now - start < .seconds(3))
    }
}
