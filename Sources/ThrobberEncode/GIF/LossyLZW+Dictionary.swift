import ThrobberCodecs
import ThrobberCore

// giflib's LZW dictionary as the lossy coder follows it: the code size
// for a palette, new entries, clears and the codes written.
extension LossyLZW {
    /// The code size and tables for a frame of `palette`.
    mutating func prepare(palette: [UInt32], transparent: Int?) {
        self.palette = palette
        self.transparent = transparent ?? -1
        var size = 2
        while size < palette.count { size *= 2 }
        var bpp = 1
        while 1 << bpp < size { bpp += 1 }
        bitsPerPixel = max(2, bpp)
        clearCode = 1 << bitsPerPixel
        for c in 0..<clearCode { pixelOf[c] = UInt8(truncatingIfNeeded: c) }
        nearestOther = palette.indices.map { j in
            var d = Int.max
            for k in palette.indices where k != j && k != self.transparent {
                d = min(d, ColorTable.perceptualDistance(palette[j], palette[k]))
            }
            return d
        }
        for k in 0..<256 {
            colors[k] = k < palette.count ? palette[k] : 0
            takes[k] = tolerance > 0 && k < palette.count && k != self.transparent
        }
        let entries = palette.indices.filter { $0 != self.transparent && $0 < clearCode }
        byGreen = entries.sorted { (palette[$0] >> 8 & 0xFF, $0) < (palette[$1] >> 8 & 0xFF, $1) }.map(UInt8.init)
        greenStart = [Int](repeating: byGreen.count, count: 257)
        for (position, k) in byGreen.enumerated().reversed() { greenStart[Int(palette[Int(k)] >> 8 & 0xFF)] = position }
        for g in stride(from: 255, through: 0, by: -1) { greenStart[g] = min(greenStart[g], greenStart[g + 1]) }
        greenReach = Int((Double(tolerance) / 4).squareRoot()) + 1
        for k in 0..<256 {
            listed[k] = false
            greenRank[k] = -1
        }
        for (position, k) in byGreen.enumerated() { greenRank[Int(k)] = Int16(position) }
        codes = 0
        bits = 0
        reset()
    }

    /// Adds the string `prefix` + `pixel` as the next code.
    mutating func insert(prefix: Int, pixel: UInt8) {
        let code = runningCode
        runningCode += 1
        let key = prefix << 8 | Int(pixel)
        child[key] = Int16(code)
        keyOf[code] = Int32(key)
        pixelOf[code] = pixel
        nextSibling[code] = firstChild[prefix]
        firstChild[prefix] = Int16(code)
    }

    /// An empty dictionary, as after a clear code.
    mutating func reset() {
        // Everything up to the highest code used so far (by this frame or,
        // with another code size, by the one before).
        for code in 0..<max(used, runningCode) {
            if keyOf[code] >= 0 {
                child[Int(keyOf[code])] = 0
                keyOf[code] = -1
            }
            firstChild[code] = 0
        }
        used = 0
        runningCode = clearCode + 2
        runningBits = bitsPerPixel + 1
        maxCode1 = 1 << runningBits
    }

    /// Counts a code as giflib writes it, widening codes as it does.
    mutating func output(_ code: Int) {
        codes += 1
        bits += runningBits
        if runningCode >= maxCode1 && code <= 4095 {
            runningBits += 1
            maxCode1 = 1 << runningBits
        }
    }
}
