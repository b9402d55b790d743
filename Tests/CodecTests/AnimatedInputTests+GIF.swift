import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

extension AnimatedInputTests {
    // MARK: GIF

    @Test(
        "every valid GIF fixture is composited as browsers do (own LZW decoder, exact), with its delays and loop count",
        Fixtures.needed, arguments: validGIF)
    func gifMatchesReference(_ fixture: String) throws {
        let path = Self.path(fixture)
        let reference = try ReferenceAnimation(.gifspec, path: path)
        let o = try Self.ours(path)
        expectFrames(o.frames, equal: reference.frames, width: reference.width, "\(fixture) vs own GIF decoder")
        #expect(
            o.durations == reference.centiseconds.map { Rational(Int64($0), 100) },
            "\(fixture): durations \(o.durations), the file says \(reference.centiseconds) cs")
        // No loop extension: played once; NETSCAPE n: n + 1 plays (0 = forever), as Chromium and Firefox play it.
        let expectedLoop = AnimationFixtures.plays(netscape: reference.loop)
        #expect(
            o.loop == expectedLoop,
            "\(fixture): loop \(String(describing: o.loop)), NETSCAPE \(String(describing: reference.loop))")
        try Self.expectFileSource(path, matches: o)
    }

    @Test(
        "every valid GIF fixture matches Pillow exactly, except where Pillow departs from browsers",
        Fixtures.needed, arguments: validGIF)
    func gifMatchesPillow(_ fixture: String) throws {
        let path = Self.path(fixture)
        let o = try Self.ours(path)
        if fixture.hasPrefix("gif-pillow/dispose_bgnd") && !fixture.contains("transparency") {
            // Every difference must be a pixel we show transparent (cleared by
            // disposal 2) where Pillow shows one opaque background color.
            let pillow = try ReferenceAnimation(.pillow, path: path)
            #expect(pillow.frames.count == o.frames.count)
            var fills = Set<[UInt8]>()
            for (i, (a, p)) in zip(o.frames, pillow.frames).enumerated() {
                for q in stride(from: 0, to: a.count, by: 4) where a[q..<q + 4] != p[q..<q + 4] {
                    #expect(
                        a[q + 3] == 0 && p[q + 3] == 255,
                        "\(fixture) frame \(i) pixel \(q / 4): ours \(Array(a[q..<q + 4])), Pillow \(Array(p[q..<q + 4]))"
                    )
                    fills.insert(Array(p[q..<q + 4]))
                }
            }
            #expect(fills.count <= 1, "Pillow's fill colors: \(fills)")
            return
        }
        if Self.pillowDeviatesGIF[fixture] != nil { return }
        let pillow = try ReferenceAnimation(.pillow, path: path)
        expectFrames(o.frames, equal: pillow.frames, width: pillow.width, "\(fixture) vs Pillow")
        for (i, (ours, theirs)) in zip(o.durations, pillow.seconds).enumerated() {
            let seconds = ours.map { Double($0.numerator) / Double($0.denominator) } ?? -1
            #expect(
                abs(seconds - (theirs ?? 0)) < 1e-9,
                "\(fixture) frame \(i): \(String(describing: ours)) s, Pillow \(String(describing: theirs)) s")
        }
    }

    @Test(
        "issue_2811.gif (LZW minimum code size 11, which giflib refuses) decodes like Pillow and browsers",
        Fixtures.needed)
    func lzwCodeSize11() throws {
        let path = Self.path("gif-pillow/issue_2811.gif")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The first image's LZW minimum code size byte, found from the file layout.
        let packed = bytes[10]
        var p = 13 + (packed & 0x80 != 0 ? 3 * (2 << Int(packed & 7)) : 0)
        while bytes[p] == 0x21 {  // skip extensions
            p += 2
            while bytes[p] != 0 { p += Int(bytes[p]) + 1 }
            p += 1
        }
        #expect(bytes[p] == 0x2C)
        let local = bytes[p + 9]
        p += 10 + (local & 0x80 != 0 ? 3 * (2 << Int(local & 7)) : 0)
        #expect(bytes[p] == 11, "LZW minimum code size \(bytes[p])")

        let reference = try ReferenceAnimation(.gifspec, path: path)
        let pillow = try ReferenceAnimation(.pillow, path: path)
        expectFrames(reference.frames, equal: pillow.frames, width: pillow.width, "own decoder vs Pillow")
        do {
            let o = try Self.ours(path)
            expectFrames(o.frames, equal: reference.frames, width: reference.width, "issue_2811.gif")
        } catch {
            Issue.record("issue_2811.gif is refused: \(error)")
        }
    }

    @Test(
        "The GIF and APNG encoders keep the delays of animated input (encode's default timeline)", Fixtures.needed,
        arguments: ["gif-pillow/dispose_none.gif", "apng-apngkit/animations/minimal.apng"])
    func pipelinesKeepInputDelays(_ fixture: String) throws {
        let path = Self.path(fixture)
        let source = try FileFrameSource(files: [path])
        // The input's delays as the independent decoders read them: the
        // GIF's centiseconds (own GIF decoder), the APNG's delay_num/delay_den
        // (own spec decoder); exact fractions (num, den) of a second.
        let reference = try ReferenceAnimation(fixture.hasSuffix(".gif") ? .gifspec : .spec, path: path)
        let exact: [(num: Int64, den: Int64)] =
            reference.decoder == .gifspec
            ? reference.centiseconds.map { (Int64($0), 100) }
            : try reference.fractions.map { f in
                let r = try #require(f, "\(fixture): no delay")
                return (r.numerator, r.denominator)
            }
        let durations = exact.map { Rational($0.num, $0.den) }
        #expect(exact.count == source.count, "\(fixture): \(exact.count) frames in the reference, \(source.count) read")
        try withTemporaryDirectory { dir in
            let gifPath = dir.appendingPathComponent("o.gif").path
            let out = try OutputFile(path: gifPath)
            _ = try AnimationEncoder(format: .gif, settings: .with { $0.jobs = 1 }).encode(source, to: out)
            try out.commit()
            // Cumulative starts in centiseconds, rounded half up, from the input's exact times,
            // in integers: t = p/q s starts at floor(100·p/q + 1/2) = (200·p + q) / (2·q) cs.
            var p: Int64 = 0
            var q: Int64 = 1
            var starts = [Int64(0)]
            for d in exact {
                p = p * d.den + d.num * q
                q *= d.den
                starts.append((200 * p + q) / (2 * q))
            }
            let expected = zip(starts.dropFirst(), starts).map { Int($0 - $1) }
            let gif = try DecodedGIF(path: gifPath)
            #expect(
                gif.frames.map(\.delay) == expected,
                "\(fixture) → GIF: delays \(gif.frames.map(\.delay)) cs, the input says \(expected) cs")
        }
        try withAPNG(source, .with { $0.jobs = 1 }) { apng in
            #expect(apng.structure.fctl.map(\.delay) == durations, "\(fixture) → APNG")
        }
    }
}
