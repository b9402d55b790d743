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
/// widening as giflib widens. Where a clear goes is also a choice: one
/// string earlier or later than giflib's place can code shorter.
///
/// The dictionary holds codes up to 4094, as giflib's does, except under
/// `ClearRule.later`. A decoder adds its entries one code behind the
/// encoder, and one whose dictionary is full keeps rewriting its last entry
/// (giflib sets entry 4095's suffix again on every code): code 4095 is safe
/// only when the clear comes right after it.
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
        /// One string before giflib's: the string whose miss would add code
        /// 4094 is not written; a clear goes in its place, and the string
        /// is coded again from the empty dictionary (gifsicle's "eager"
        /// clear). Pays where that string is short.
        case earlier
        /// One string after giflib's, as gifsicle's other rule: the
        /// dictionary also takes code 4095, and the clear follows the next
        /// string, so that the decoder adds 4095 and then clears.
        case later

        /// The rules that clear where giflib does, or later still.
        package static let atGiflibsPlace: [ClearRule] = [.whenFull, .whenWorn, .never]
        /// The rules that move giflib's clear by one string.
        package static let movedByAString: [ClearRule] = [.earlier, .later]
    }

    /// Codes a block holds for `whenWorn`.
    static let block = 512

    /// Where the coder is: everything needed to go on from a pixel, so
    /// that the rules can share the coding up to the miss that would add
    /// code 4094.
    struct State {
        /// Open addressing: `keys[slot]` is prefix << 8 | pixel (−1 =
        /// empty), `codes[slot]` its code. 8,192 slots for at most 4,095
        /// strings.
        var keys: [Int32] = []
        var codes: [Int16] = []
        var bytes: [UInt8] = []
        var bitBuffer: UInt64 = 0
        var bitCount = 0
        var width = 0
        var next = 0
        var widthLimit = 0
        /// The next pixel to read, and the code of the string before it.
        var position = 1
        var current = 0
        /// `whenWorn`: pixels per code of the first block after the
        /// dictionary filled (0 until known), and the current block.
        var baseline = 0.0
        var blockCodes = 0
        var blockStart = 0
        /// Where the current string starts.
        var stringStart = 0
        /// The last run stopped at its `giveUpAt`.
        var gaveUp = false
    }
    private var state = State()
    /// `whenWorn`'s state at its first clear, kept by `run` with
    /// `keepsWorn` (nil: it did not clear).
    private var worn: State?
    /// Whether the last `smallest` came near a full dictionary (else every
    /// rule codes alike), and the rule it chose.
    package private(set) var filled = false
    package private(set) var chosen = ClearRule.whenFull
    private var codeSize = 2
    private var clear: Int { 1 << codeSize }

    package init() {}

    /// The LZW data of `indices` (each below 2^`codeSize`) with `rule`,
    /// without the code-size byte or sub-block lengths.
    package mutating func encode(_ indices: UnsafeBufferPointer<UInt8>, codeSize: Int, rule: ClearRule) -> [UInt8] {
        start(indices, codeSize: codeSize)
        guard !indices.isEmpty else { return finish(indices) }
        _ = run(indices, rule: rule, stopAtFill: false)
        return finish(indices)
    }

    /// The shortest LZW data of `indices` among the rules (the first on
    /// ties, so that an image whose dictionary never fills is coded as
    /// giflib codes it). The rules share the coding up to the miss that
    /// would add code 4094, where the first of them differs; a rule stops
    /// as soon as its data is as long as the shortest so far.
    package mutating func smallest(
        _ indices: UnsafeBufferPointer<UInt8>, codeSize: Int, rules: [ClearRule] = ClearRule.allCases
    ) -> [UInt8] {
        start(indices, codeSize: codeSize)
        filled = false
        chosen = rules[0]
        guard !indices.isEmpty else { return finish(indices) }
        // Until the dictionary is nearly full every rule codes alike.
        guard run(indices, rule: .whenFull, stopAtFill: true) else { return finish(indices) }
        filled = true
        let atFill = state
        var best: [UInt8] = []
        // `never` codes as `whenWorn` does up to its first clear: where
        // `whenWorn` ran first, `never` goes on from there (`worn`), and
        // where it never cleared, `never` would code the same bytes (or
        // give up at the same place) and cannot win.
        var wornRan = false
        for rule in rules {
            let giveUpAt = best.isEmpty ? Int.max : best.count
            if rule == .never && wornRan {
                guard let worn else { continue }
                state = worn
                _ = run(indices, rule: rule, stopAtFill: false, giveUpAt: giveUpAt)
            } else {
                state = atFill
                _ = run(
                    indices, rule: rule, stopAtFill: false, resuming: true, giveUpAt: giveUpAt,
                    keepsWorn: rule == .whenWorn)
                wornRan = wornRan || rule == .whenWorn
            }
            if state.gaveUp { continue }
            let data = finish(indices)
            if best.isEmpty || data.count < best.count { (best, chosen) = (data, rule) }
        }
        return best
    }

    private mutating func start(_ indices: UnsafeBufferPointer<UInt8>, codeSize: Int) {
        precondition((2...8).contains(codeSize))
        self.codeSize = codeSize
        state = State()
        state.keys = [Int32](repeating: -1, count: 8192)
        state.codes = [Int16](repeating: 0, count: 8192)
        state.bytes.reserveCapacity(indices.count / 2 + 16)
        restart()
        output(clear)
        state.current = Int(indices.first ?? 0)
    }

    /// An empty dictionary.
    private mutating func restart() {
        for i in state.keys.indices { state.keys[i] = -1 }
        state.width = codeSize + 1
        state.next = clear + 2
        state.widthLimit = 1 << state.width
    }

    /// Codes pixels from `state.position` on. With `stopAtFill`, stops at
    /// the first miss that would add code 4094 (nothing of it written yet)
    /// and returns true; else returns whether the dictionary filled.
    /// `resuming` takes up a state stopped so. Gives up (setting
    /// `state.gaveUp`) once the data holds `giveUpAt` bytes: a rule tried
    /// after a smaller one can then no longer win.
    /// With `keepsWorn`, `worn` is set to the state at the first clear
    /// `whenWorn` makes (nil if none).
    private mutating func run(
        _ indices: UnsafeBufferPointer<UInt8>, rule: ClearRule, stopAtFill: Bool, resuming: Bool = false,
        giveUpAt: Int = .max, keepsWorn: Bool = false
    ) -> Bool {
        // The dictionary is walked through raw pointers: this loop is most
        // of a GIF's coding time, and array accesses through `state` pay
        // a uniqueness and a bounds check a pixel. The state moves into the
        // coder (no copy of its data) and back.
        var coder = Coder(codeSize: codeSize, keepsWorn: keepsWorn)
        swap(&coder.state, &state)
        var keys: [Int32] = []
        var codes: [Int16] = []
        swap(&keys, &coder.state.keys)
        swap(&codes, &coder.state.codes)
        defer {
            swap(&keys, &coder.state.keys)
            swap(&codes, &coder.state.codes)
            swap(&coder.state, &state)
            if keepsWorn { worn = coder.worn }
        }
        return keys.withUnsafeMutableBufferPointer { k in
            codes.withUnsafeMutableBufferPointer { c in
                coder.run(
                    indices, keys: k.baseAddress!, codes: c.baseAddress!, rule: rule, stopAtFill: stopAtFill,
                    resuming: resuming, giveUpAt: giveUpAt)
            }
        }
    }

    /// The last string's code, the end code, and the last bits.
    private mutating func finish(_ indices: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if !indices.isEmpty { output(state.current) }
        output(clear + 1)
        if state.bitCount > 0 { state.bytes.append(UInt8(truncatingIfNeeded: state.bitBuffer)) }
        state.bitCount = 0
        return state.bytes
    }

    @inline(__always)
    static func slot(_ key: Int32) -> Int {
        Int((UInt32(bitPattern: key) &* 0x9E37_79B1) >> 19)
    }

    /// Appends a code at the current width (`State.output`).
    @inline(__always)
    private mutating func output(_ code: Int) { state.output(code) }
}

extension LZWEncoder.State {
    /// Appends a code at the current width, then widens as giflib does
    /// (once the next free code needs another bit; 12 bits at most).
    @inline(__always)
    mutating func output(_ code: Int) {
        bitBuffer |= UInt64(code) << UInt64(bitCount)
        bitCount += width
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
        if next >= widthLimit && width < 12 {
            width += 1
            widthLimit = 1 << width
        }
    }
}
