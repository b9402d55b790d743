/// Reads SVG path data into a PathGeometry.
///
/// The syntax is SVG 2's path data (https://www.w3.org/TR/SVG2/paths.html#PathDataBNF): the commands
/// M L H V C S Q T A Z, upper case absolute and lower case relative, each command's parameters repeated
/// as often as wanted (after M, as L), numbers like `-1.5e-3`, `.5.5` (two) and `1-2` (two), commas or
/// white space between them, arc flags with or without separators. Numbers are points. Unlike a browser,
/// which draws a path up to its first error, the first error refuses the whole path, so it gets fixed.
///
/// Every command becomes cubics: a line is one, a quadratic is raised to one, an arc is always four.
/// Two path datas with the same commands therefore have the same structure
/// (`PathGeometry.sameStructure(as:)`), which a morph needs.
enum PathData {
    /// Why path data was refused: `offset` is the 0-based index, in Characters of the string, where the
    /// problem is (the string's count when data ran out); `message` says what was expected, for example
    /// "expected a number after C" or "expected a command letter, found \"x\"".
    struct Failure: Error, Equatable {
        /// Where the problem is: a Character index, 0-based.
        var offset: Int
        /// What was expected there.
        var message: String
    }

    /// The most segments a path may have over all its subpaths (an arc is four), and the most subpaths.
    static let maxSegments = 20_000
    /// The largest size of a number in path data, and of every point the path makes, in points.
    static let maxCoordinate = 100_000.0

    /// `d` as geometry, or why not. Linear in the length of `d`; stops at the first error.
    static func parse(_ d: String) throws(Failure) -> PathGeometry {
        let bytes = Array(d.utf8)
        var reader = Reader(bytes: bytes)
        do throws(Problem) {
            return try reader.path()
        } catch {
            throw error.failure(in: d, bytes: bytes)
        }
    }
}

extension PathData {
    /// A command letter, lower case: what its parameters are and how they draw.
    enum Command: Character {
        case move = "m"
        case line = "l"
        case horizontal = "h"
        case vertical = "v"
        case cubic = "c"
        case smoothCubic = "s"
        case quadratic = "q"
        case smoothQuadratic = "t"
        case arc = "a"
        case close = "z"

        /// The command that `byte` names in either case, or nil.
        init?(byte: UInt8) {
            self.init(rawValue: Character(Unicode.Scalar(byte | 0x20)))
        }
    }

    /// One parse: the scanner over the bytes and the builder its commands draw into.
    struct Reader {
        /// The bytes and the position in them.
        var scan: Scanner
        /// The geometry so far.
        var build = Builder()

        /// A reader at the start of `bytes`.
        init(bytes: [UInt8]) { scan = Scanner(bytes: bytes) }

        /// All of the path data as geometry.
        mutating func path() throws(Problem) -> PathGeometry {
            scan.skipSpace()
            guard let first = scan.peek else { throw Problem(at: 0, message: "path data is empty") }
            guard first | 0x20 == UInt8(ascii: "m") else {
                throw Problem(at: scan.at, message: "path data must start with M or m")
            }
            while let letter = scan.peek {
                try command(letter)
                scan.skipSpace()
            }
            return PathGeometry(subpaths: build.subpaths)
        }

        /// The command at the position, `letter`, with all its parameters.
        mutating func command(_ letter: UInt8) throws(Problem) {
            guard let kind = Command(byte: letter) else {
                throw Problem(at: scan.at, message: "expected a command letter", namesFound: true)
            }
            let relative = letter & 0x20 != 0
            build.commandAt = scan.at
            scan.letter = letter
            scan.at += 1
            if kind == .close {
                try build.close()
                return
            }
            scan.skipSpace()
            var first = true
            repeat {
                try parameters(kind, relative: relative, first: first)
                first = false
            } while scan.moreParameters()
        }

        /// One set of `kind`'s parameters, drawn; `first` is the set right after the letter.
        mutating func parameters(_ kind: Command, relative: Bool, first: Bool) throws(Problem) {
            let base = relative ? build.current : PathGeometry.Point(0, 0)
            switch kind {
            case .move:
                let p = try pair(base, first: true)
                if first { try build.move(to: p) } else { try build.line(to: p) }
            case .line: try build.line(to: try pair(base, first: true))
            case .horizontal: try build.line(to: PathGeometry.Point(base.x + (try scan.number()), build.current.y))
            case .vertical: try build.line(to: PathGeometry.Point(build.current.x, base.y + (try scan.number())))
            case .cubic:
                let (c1, c2, to) = (try pair(base, first: true), try pair(base), try pair(base))
                try build.cubic(c1, c2, to)
            case .smoothCubic:
                let (c2, to) = (try pair(base, first: true), try pair(base))
                try build.smoothCubic(c2, to)
            case .quadratic:
                let (q, to) = (try pair(base, first: true), try pair(base))
                try build.quadratic(q, to)
            case .smoothQuadratic: try build.smoothQuadratic(try pair(base, first: true))
            case .arc: try arc(base)
            case .close: break
            }
        }

        /// A coordinate pair plus `base`; separated from what came before unless `first`.
        mutating func pair(_ base: PathGeometry.Point, first: Bool = false) throws(Problem) -> PathGeometry.Point {
            let x = first ? try scan.number() : try scan.next()
            let y = try scan.next()
            return PathGeometry.Point(base.x + x, base.y + y)
        }

        /// An arc's seven parameters, its end plus `base`, drawn.
        mutating func arc(_ base: PathGeometry.Point) throws(Problem) {
            let rx = try scan.number()
            let ry = try scan.next()
            let rotation = try scan.next()
            let large = try scan.flag()
            let sweep = try scan.flag()
            let to = try pair(base)
            try build.arc(radii: (rx, ry), rotation: rotation, large: large, sweep: sweep, to: to)
        }
    }
}

extension PathData.Problem {
    /// This problem for `d`, whose UTF-8 is `bytes`: the byte offset as the index of the Character holding
    /// that byte, the Character named when `namesFound`. In plain ASCII (no CR LF, which is one Character)
    /// the two offsets are the same.
    func failure(in d: String, bytes: [UInt8]) -> PathData.Failure {
        let ascii = !bytes[0..<min(at + 2, bytes.count)].contains { $0 >= 0x80 || $0 == 0x0D }
        guard ascii else { return failure(counting: d) }
        let found = namesFound && at < bytes.count ? Self.found(Character(Unicode.Scalar(bytes[at]))) : ""
        return PathData.Failure(offset: at, message: message + found)
    }

    /// This problem for `d`, its offset found by counting Characters.
    func failure(counting d: String) -> PathData.Failure {
        var bytes = 0
        var index = 0
        for character in d {
            bytes += character.utf8.count
            if bytes > at {
                return PathData.Failure(offset: index, message: message + (namesFound ? Self.found(character) : ""))
            }
            index += 1
        }
        return PathData.Failure(offset: index, message: message)
    }

    /// ", found \"x\"", for messages.
    static func found(_ c: Character) -> String { ", found \(String(c).debugDescription)" }
}
