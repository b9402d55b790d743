import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// Throbber's own SHA-256 against the FIPS 180-4 example vectors and, for
/// data of many lengths (around every padding boundary), against sha256sum.
@Suite("SHA-256")
struct SHA256Tests {
    static func hex(_ text: String) -> String { SHA256.hex(Array(text.utf8)) }

    @Test("FIPS 180-4 / NIST example vectors")
    func standardVectors() {
        #expect(Self.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 448 bits: the padding needs a second block.
        #expect(
            Self.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // 896 bits.
        #expect(
            Self.hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            )
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("one million 'a', fed one byte at a time and in uneven pieces, gives the same digest")
    func streaming() {
        let a = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var byByte = SHA256()
        for b in a { byByte.update(CollectionOfOne(b)) }
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(byByte.finalize().map { String(format: "%02x", $0) }.joined() == expected)
        var pieces = SHA256()
        var i = 0
        var step = 1
        while i < a.count {
            let n = min(step, a.count - i)
            pieces.update(a[i..<i + n])
            i += n
            step = (step * 7 + 3) % 1000 + 1
        }
        #expect(pieces.finalize().map { String(format: "%02x", $0) }.joined() == expected)
    }

    /// Deterministic pseudo-random bytes.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in random.byte() }
    }

    static func sha256sum(_ files: [URL]) throws -> [String] { try TestSupport.sha256sum(files) }

    @Test("random data of every length 0…200 and some large ones: same digest as sha256sum, one-shot and in pieces")
    func againstSha256sum() throws {
        let lengths =
            Array(0...200) + [255, 256, 447, 448, 511, 512, 1000, 4095, 4096, 65_539, 1 << 20, (1 << 20) + 55]
        try withTemporaryDirectory { (dir: URL) throws in
            var files: [URL] = []
            var datas: [[UInt8]] = []
            for (i, n) in lengths.enumerated() {
                let d = Self.bytes(n, seed: UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
                let f = dir.appendingPathComponent("\(i).bin")
                try Data(d).write(to: f)
                files.append(f)
                datas.append(d)
            }
            let reference = try Self.sha256sum(files)
            try #require(reference.count == lengths.count)
            for (i, d) in datas.enumerated() {
                #expect(SHA256.hex(d) == reference[i], "length \(lengths[i])")
                // Split at two points that move with the length.
                let a = d.count / 3
                let b = d.count - d.count / 5
                var h = SHA256()
                h.update(d[0..<a])
                h.update(d[a..<b])
                h.update(d[b...])
                #expect(
                    h.finalize().map { String(format: "%02x", $0) }.joined() == reference[i],
                    "pieces, length \(lengths[i])")
            }
        }
    }

    @Test("hex is 64 lowercase hex digits; finalize gives 32 bytes")
    func format() {
        for n in [0, 1, 55, 56, 64] {
            let h = SHA256.hex(Self.bytes(n, seed: 7))
            #expect(h.count == 64 && h.allSatisfy { "0123456789abcdef".contains($0) })
        }
        var s = SHA256()
        s.update([1, 2, 3])
        #expect(s.finalize().count == 32)
    }

    @Test("an OutputFile's sha256 is the hash of the bytes it wrote, per sha256sum")
    func outputFileHash() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let path = dir.appendingPathComponent("out.bin").path
            let out = try OutputFile(path: path, hashing: true)
            let parts = [Self.bytes(10, seed: 1), Self.bytes(100_000, seed: 2), [], Self.bytes(63, seed: 3)]
            for p in parts { try out.write(p) }
            #expect(out.sha256 == nil)
            try out.commit()
            let all = parts.flatMap { $0 }
            #expect(out.sha256 == SHA256.hex(all))
            #expect(out.sha256 == (try Self.sha256sum([URL(fileURLWithPath: path)])).first)
        }
    }
}
