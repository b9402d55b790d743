import Foundation
import TestSupport
import Testing

/// `throbber encode LOTTIE`: every real loader of lottie-android, checked
/// against rlottie's own frames drawn through Python ctypes, with the
/// timing the file's fr, ip and op call for.
@Suite("Lottie input", .needsFixtures, .tags(.slow))
struct LottieCLITests {
    /// Fixtures larger than 256 pixels are drawn 160 pixels wide (or high),
    /// which also checks that a requested size is drawn, not resampled.
    static func size(_ e: LottieExpectation) -> (args: [String], width: Int, height: Int) {
        guard max(e.width, e.height) > 256 else { return ([], e.width, e.height) }
        if e.width >= e.height {
            return (["--width", "160"], 160, (2 * e.height * 160 + e.width) / (2 * e.width))
        }
        return (["--height", "160"], (2 * e.width * 160 + e.height) / (2 * e.height), 160)
    }

    @Test(
        "APNG: every frame equals rlottie's, at the file's full rate, timed exactly",
        arguments: LottieExpectation.fixtures)
    func apngExact(name: String) throws {
        let lottie = try LottieExpectation.fixture(name)
        let e = try LottieExpectation(lottie)
        let size = Self.size(e)
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("\(name).png")
            let r = try Throbber.run(["encode", lottie.path, "-o", out.path, "-q"] + size.args)
            #expect(r.status == 0, "\(r.stderrText)")
            let entries = e.entries(maxFPS: nil)
            #expect(entries.count == e.count + 1)
            let c = try LottieExpectation.compare(out, lottie, width: size.width, height: size.height, entries: entries)
            #expect(c.width == size.width && c.height == size.height)
            #expect(c.startsOK, "delays do not add up to the expected frame starts")
            #expect(c.total == fractionText(e.count * e.rate.den, e.rate.num), "one loop lasts count/fr seconds")
            let bad = c.entries.filter { $0.diff != 0 }
            #expect(bad.isEmpty, "frames differing from rlottie: \(bad.prefix(5).map { "\($0.frame): \($0.diff) px" })")
        }
    }

    @Test(
        "GIF: the sub-rate of at most 50 fps, exact delays, ≥ 40 dB against rlottie's frames on white",
        arguments: LottieExpectation.fixtures)
    func gifSubRate(name: String) throws {
        let lottie = try LottieExpectation.fixture(name)
        let e = try LottieExpectation(lottie)
        let size = Self.size(e)
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("\(name).gif")
            let r = try Throbber.run(["encode", lottie.path, "-o", out.path, "-q", "--matte", "white"] + size.args)
            #expect(r.status == 0, "\(r.stderrText)")
            let entries = e.entries(maxFPS: 50)
            let c = try LottieExpectation.compare(out, lottie, width: size.width, height: size.height, entries: entries)
            #expect(c.width == size.width && c.height == size.height)
            #expect(c.startsOK, "GIF delays are not the rounded exact starts")
            #expect(c.decoded <= entries.count - 1)
            let worst = c.entries.min { $0.psnr < $1.psnr }
            #expect((worst?.psnr ?? 0) >= 40, "worst frame \(worst.map { "\($0.frame): \($0.psnr) dB" } ?? "none")")
        }
    }

    @Test("Every fixture's middle frame at the file's own size equals rlottie's", arguments: LottieExpectation.fixtures)
    func nativeSize(name: String) throws {
        let lottie = try LottieExpectation.fixture(name)
        let e = try LottieExpectation(lottie)
        let middle = e.count / 2
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("\(name).png")
            let r = try Throbber.run(["encode", lottie.path, "-o", out.path, "-q", "--frames", String(middle + 1)])
            #expect(r.status == 0, "\(r.stderrText)")
            let entries: [[Int?]] = [[middle, 0, 1], [nil, e.rate.den, e.rate.num]]
            let c = try LottieExpectation.compare(out, lottie, width: e.width, height: e.height, entries: entries)
            #expect(c.width == e.width && c.height == e.height && c.decoded == 1)
            #expect(c.entries.first?.diff == 0)
        }
    }
}

/// n/d reduced, as Python's Fraction prints it ("3/5", or "2" when whole).
func fractionText(_ n: Int, _ d: Int) -> String {
    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    let g = gcd(n, d)
    return d / g == 1 ? "\(n / g)" : "\(n / g)/\(d / g)"
}
