/// GIF's LZW coder, written here so that a full dictionary need not be
/// cleared at once.
///
/// giflib sends a clear code the moment its dictionary is full (the next
/// code would be 4095) and starts again from single pixels. The GIF spec
/// lets an encoder keep coding with the full dictionary instead ("deferred
/// clear"): no new strings are added, codes stay 12 bits wide, and a clear
/// comes whenever the encoder likes. Where the picture goes on looking like
/// what filled the dictionary (a screen recording, a frame of repeated
/// texture), the full dictionary's long strings are worth far more than a
/// fresh start; gifsicle writes such streams, and every decoder reads
/// them. `ClearRule.whenFull` gives exactly giflib's bytes (tested against
/// giflib's own encoder), so nothing is lost by choosing among the rules.
///
/// Codes are those of giflib: the same code size, a clear code first,
/// widening as giflib widens, and never code 4095, so that decoders that
/// add one entry past the encoder's (all of them) stay in step.
package struct LZWEncoder {
    /// When a full dictionary is cleared.
    package enum ClearRule: CaseIterable, Sendable {
        /// At once, as giflib does.
        case whenFull
        /// When strings from the full dictionary grow short: after each
        /// block of 512 codes, if its pixels per code fell below 3/4 of the
        /// first block's after the dictionary filled.
        case whenWorn
        /// Never: the full dictionary codes the rest of the image.
        case never
    }

    /// Codes a block holds for `whenWorn`.
    static let block = 512

    /// Open addressing: `keys[slot]` is prefix << 8 | pixel (−1 = empty),
    /// `codes[slot]` its code. 8,192 slots for at most 4,095 strings.
    private var keys = [Int32](repeating: -1, count: 8192)
    private var codes = [Int16](repeating: 0, count: 8192)
    private var bytes: [UInt8] = []
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private var width = 0
    private var next = 0
    private var widthLimit = 0
    /// Codes written for the last image, clear and end codes included.
    package private(set) var codeCount = 0
    /// Whether the dictionary filled while coding the last image (if not,
    /// every rule gives the same codes).
    package private(set) var filled = false

    package init() {}

    /// The LZW data of `indices` (each below 2^`codeSize`), without the
    /// code-size byte or sub-block lengths.
    package mutating func encode(_ indices: UnsafeBufferPointer<UInt8>, codeSize: Int, rule: ClearRule) -> [UInt8] {
        precondition((2...8).contains(codeSize))
        let clear = 1 << codeSize
        bytes = []
        bytes.reserveCapacity(indices.count / 2 + 16)
        bitBuffer = 0
        bitCount = 0
        codeCount = 0
        filled = false
        func restart() {
            for i in keys.indices { keys[i] = -1 }
            width = codeSize + 1
            next = clear + 2
            widthLimit = 1 << width
        }
        restart()
        output(clear)
        guard let first = indices.first else {
            output(clear + 1)
            flush()
            return bytes
        }
        var current = Int(first)
        // whenWorn: pixels per code of the first block after the dictionary
        // filled (0 until known), and the current block's count so far.
        var baseline = 0.0
        var blockCodes = 0
        var blockPixels = 0
        var i = 1
        while i < indices.count {
            let pixel = Int(indices[i])
            i += 1
            let key = Int32(current << 8 | pixel)
            var slot = Self.slot(key)
            while keys[slot] != -1 && keys[slot] != key { slot = (slot + 1) & 8191 }
            if keys[slot] == key {
                current = Int(codes[slot])
                continue
            }
            output(current)
            current = pixel
            if next < 4095 {
                keys[slot] = key
                codes[slot] = Int16(next)
                next += 1
                blockPixels = i - 1
                continue
            }
            // The dictionary is full.
            filled = true
            switch rule {
            case .whenFull:
                output(clear)
                restart()
            case .never:
                break
            case .whenWorn:
                blockCodes += 1
                guard blockCodes == Self.block else { continue }
                let perCode = Double(i - 1 - blockPixels) / Double(Self.block)
                blockCodes = 0
                blockPixels = i - 1
                if baseline == 0 {
                    baseline = perCode
                } else if perCode < 0.75 * baseline {
                    output(clear)
                    restart()
                    baseline = 0
                }
            }
        }
        output(current)
        output(clear + 1)
        flush()
        return bytes
    }

    @inline(__always)
    private static func slot(_ key: Int32) -> Int {
        Int((UInt32(bitPattern: key) &* 0x9E37_79B1) >> 19)
    }

    /// Appends a code at the current width, then widens as giflib does
    /// (once the next free code needs another bit; 12 bits at most).
    @inline(__always)
    private mutating func output(_ code: Int) {
        bitBuffer |= UInt64(code) << UInt64(bitCount)
        bitCount += width
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
        codeCount += 1
        if next >= widthLimit && width < 12 {
            width += 1
            widthLimit = 1 << width
        }
    }

    private mutating func flush() {
        if bitCount > 0 { bytes.append(UInt8(truncatingIfNeeded: bitBuffer)) }
        bitBuffer = 0
        bitCount = 0
    }
}
