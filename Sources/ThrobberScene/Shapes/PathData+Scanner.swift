extension PathData {
    /// Why a parse stopped, at a byte offset of the UTF-8; `PathData.parse` turns it into a `Failure`,
    /// counted in Characters.
    struct Problem: Error {
        /// The byte offset of the problem (the byte count when data ran out).
        var at: Int
        /// What was expected there.
        var message: String
        /// Whether the message goes on to name the Character at `at`, when there is one.
        var namesFound = false
    }

    /// The UTF-8 bytes of path data and a position in them: white space, separators, numbers and flags.
    struct Scanner {
        /// The path data.
        let bytes: [UInt8]
        /// The position: the next byte to read.
        var at = 0
        /// The command letter whose parameters are being read, for messages.
        var letter = UInt8(ascii: "M")

        /// The byte at the position, nil at the end.
        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        /// A scanner at the start of `bytes`.
        init(bytes: [UInt8]) { self.bytes = bytes }

        /// Skips `wsp*`: tab, space, line feed, form feed, carriage return.
        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D { at += 1 }
        }

        /// Skips `comma_wsp?`: white space, at most one comma, white space.
        mutating func separator() {
            skipSpace()
            if peek == UInt8(ascii: ",") {
                at += 1
                skipSpace()
            }
        }

        /// After a set of parameters: whether another set follows (after a comma one must).
        mutating func moreParameters() -> Bool {
            skipSpace()
            guard let b = peek else { return false }
            if b == UInt8(ascii: ",") {
                at += 1
                skipSpace()
                return true
            }
            return b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || Self.isDigit(b)
        }

        /// A number after a separator.
        mutating func next() throws(Problem) -> Double {
            separator()
            return try number()
        }

        /// The number at the position: `sign? (digits ("." digits?)? | "." digits) (("e" | "E") sign? digits)?`,
        /// read as far as it goes (so `.5.5` is two numbers and `1-2` too), at most `maxCoordinate` either way.
        mutating func number() throws(Problem) -> Double {
            let start = at
            if let b = peek, b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { at += 1 }
            var digitCount = digits()
            if peek == UInt8(ascii: ".") {
                at += 1
                digitCount += digits()
            }
            guard digitCount > 0 else {
                throw Problem(at: at, message: "expected a number after \(Self.name(letter))", namesFound: true)
            }
            try exponent()
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            guard let value = Double(text), abs(value) <= PathData.maxCoordinate else {
                let most = Int(PathData.maxCoordinate)
                throw Problem(at: start, message: "a number is out of range (more than \(most) either way)")
            }
            return value
        }

        /// Skips a number's exponent, if there is one: `e` or `E`, a sign, at least one digit.
        mutating func exponent() throws(Problem) {
            guard let e = peek, e | 0x20 == UInt8(ascii: "e") else { return }
            at += 1
            if let b = peek, b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else {
                throw Problem(at: at, message: "expected a digit in the exponent after \(Self.name(e))")
            }
        }

        /// Skips the digits at the position; how many.
        mutating func digits() -> Int {
            let start = at
            while let b = peek, Self.isDigit(b) { at += 1 }
            return at - start
        }

        /// An arc flag, `0` or `1`, after a separator.
        mutating func flag() throws(Problem) -> Bool {
            separator()
            switch peek {
            case UInt8(ascii: "0"):
                at += 1
                return false
            case UInt8(ascii: "1"):
                at += 1
                return true
            default: throw Problem(at: at, message: "an arc flag is 0 or 1")
            }
        }

        /// Whether `b` is an ASCII digit.
        static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

        /// An ASCII letter as a string, for messages.
        static func name(_ b: UInt8) -> String { String(Character(Unicode.Scalar(b))) }
    }
}
