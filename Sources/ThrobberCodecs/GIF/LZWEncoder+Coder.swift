extension LZWEncoder {
    /// The coder's loop over one image: `State`'s scalars held in locals
    /// and its dictionary behind raw pointers, written back when it stops.
    struct Coder {
        var state = State()
        let codeSize: Int
        let clear: Int
        /// Whether `whenWorn` keeps its state at its first clear (`worn`).
        let keepsWorn: Bool
        var worn: State?

        init(codeSize: Int, keepsWorn: Bool = false) {
            self.codeSize = codeSize
            clear = 1 << codeSize
            self.keepsWorn = keepsWorn
        }

        /// `LZWEncoder.run` on raw dictionary storage: `keys[slot]` is
        /// prefix << 8 | pixel (−1 = empty), `codes[slot]` its code.
        // Long: the encoder's one state machine; each clear rule acts at a different point of the same loop.
        mutating func run(
            _ indices: UnsafeBufferPointer<UInt8>, keys: UnsafeMutablePointer<Int32>,
            codes: UnsafeMutablePointer<Int16>, rule: ClearRule, stopAtFill: Bool, resuming: Bool, giveUpAt: Int
        ) -> Bool {
            var sawFull = false
            var resumed = resuming
            let limit = rule == .later ? 4096 : 4095
            let count = indices.count
            let pixels = indices.baseAddress!
            var position = state.position
            var current = state.current
            defer {
                state.position = position
                state.current = current
            }
            var key: Int32 = 0
            var slot = 0
            while resumed || position < count {
                if resumed {
                    // The miss stopped at: its string and free slot, found again.
                    resumed = false
                    key = Int32(current << 8 | Int(pixels[position - 1]))
                    slot = LZWEncoder.slot(key)
                    while keys[slot] != -1 { slot = (slot + 1) & 8191 }
                } else {
                    key = Int32(current << 8 | Int(pixels[position]))
                    position += 1
                    slot = LZWEncoder.slot(key)
                    var probe = keys[slot]
                    while probe != -1 && probe != key {
                        slot = (slot + 1) & 8191
                        probe = keys[slot]
                    }
                    if probe == key {
                        current = Int(codes[slot])
                        continue
                    }
                    if state.next == 4094 {
                        sawFull = true
                        if stopAtFill { return true }
                    }
                }
                if state.next == 4094 && rule == .earlier {
                    output(clear)
                    restart(keys)
                    position = state.stringStart + 1
                    current = Int(pixels[state.stringStart])
                    continue
                }
                output(current)
                if state.bytes.count >= giveUpAt {
                    state.gaveUp = true
                    return sawFull
                }
                current = Int(pixels[position - 1])
                state.stringStart = position - 1
                if state.next < limit {
                    keys[slot] = key
                    codes[slot] = Int16(state.next)
                    state.next += 1
                    state.blockStart = position - 1
                    continue
                }
                // The dictionary is full.
                switch rule {
                case .whenFull, .earlier, .later:
                    output(clear)
                    restart(keys)
                case .never:
                    break
                case .whenWorn:
                    state.blockCodes += 1
                    guard state.blockCodes == LZWEncoder.block else { continue }
                    let perCode = Double(position - 1 - state.blockStart) / Double(LZWEncoder.block)
                    state.blockCodes = 0
                    state.blockStart = position - 1
                    if state.baseline == 0 {
                        state.baseline = perCode
                    } else if perCode < 0.75 * state.baseline {
                        if keepsWorn && worn == nil {
                            // Where `never`, which does not clear, goes on.
                            var kept = state
                            kept.position = position
                            kept.current = current
                            kept.keys = Array(UnsafeBufferPointer(start: keys, count: 8192))
                            kept.codes = Array(UnsafeBufferPointer(start: codes, count: 8192))
                            worn = kept
                        }
                        output(clear)
                        restart(keys)
                        state.baseline = 0
                    }
                }
            }
            return sawFull
        }

        /// An empty dictionary.
        @inline(__always)
        private mutating func restart(_ keys: UnsafeMutablePointer<Int32>) {
            keys.update(repeating: -1, count: 8192)
            state.width = codeSize + 1
            state.next = clear + 2
            state.widthLimit = 1 << state.width
        }

        /// A code at the current width (`State.output`).
        @inline(__always)
        private mutating func output(_ code: Int) { state.output(code) }
    }
}
