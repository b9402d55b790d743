/// Which input frames to use, in which order: `1-30`, `10-`, `-20`,
/// `1-60:2` (every second), `30-1` (backward) and comma lists of these.
/// Numbers are 1-based positions in input order; a range may run past the
/// last frame (it stops there) but each part must select at least one frame.
public struct FrameSelection: Equatable, Sendable, CustomStringConvertible {
    /// One comma-separated part: `first-last:step`, either end open.
    public struct Part: Equatable, Sendable {
        /// The first frame, 1-based; nil: from the first frame.
        public var first: Int?
        /// The last frame, 1-based; nil: to the last frame.
        public var last: Int?
        /// Every `step`-th frame from `first`, at least 1.
        public var step: Int

        /// A part running from `first` to `last` (both included).
        public init(first: Int?, last: Int?, step: Int = 1) {
            self.first = first
            self.last = last
            self.step = step
        }
    }

    /// The parts, in the order their frames are shown.
    public var parts: [Part]
    /// The text it was parsed from.
    public let description: String

    /// Parses the syntax above; nil when it is not that syntax (empty
    /// parts, numbers below 1, a step below 1, stray characters).
    public init?(parsing text: String) {
        var parts: [Part] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let stepSplit = item.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(stepSplit.count) else { return nil }
            var step = 1
            if stepSplit.count == 2 {
                guard let s = Self.number(stepSplit[1]) else { return nil }
                step = s
            }
            let range = stepSplit[0]
            let ends = range.split(separator: "-", omittingEmptySubsequences: false)
            switch ends.count {
            case 1:
                guard let n = Self.number(ends[0]) else { return nil }
                parts.append(Part(first: n, last: n, step: step))
            case 2:
                guard !(ends[0].isEmpty && ends[1].isEmpty) else { return nil }
                var first: Int?
                var last: Int?
                if !ends[0].isEmpty {
                    guard let n = Self.number(ends[0]) else { return nil }
                    first = n
                }
                if !ends[1].isEmpty {
                    guard let n = Self.number(ends[1]) else { return nil }
                    last = n
                }
                parts.append(Part(first: first, last: last, step: step))
            default:
                return nil
            }
        }
        self.parts = parts
        self.description = text
    }

    /// A positive decimal number of at most 9 digits.
    private static func number(_ s: Substring) -> Int? {
        guard (1...9).contains(s.count), s.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(s), n >= 1 else {
            return nil
        }
        return n
    }

    /// 0-based indices into `count` frames, in the order shown. Throws
    /// ``ThrobberError/Kind/usage`` (field ``SettingField/frames``) naming
    /// the part that selects no frame.
    public func indices(count: Int) throws -> [Int] {
        var out: [Int] = []
        for part in parts {
            let first = part.first ?? 1
            let last = part.last ?? count
            let lo = min(first, last)
            // An open end runs to the last frame, so it starts inside or
            // selects nothing.
            guard lo <= count, part.last != nil || first <= count else {
                let text = [part.first.map(String.init) ?? "", part.last.map(String.init) ?? ""]
                let name = part.first == part.last ? text[0] : text.joined(separator: "-")
                throw ThrobberError(
                    .usage, field: .frames,
                    "\(name) selects no frame: there \(count == 1 ? "is 1 frame" : "are \(count) frames") (1-\(count))")
            }
            if first <= last {
                out += stride(from: first, through: min(last, count), by: part.step).map { $0 - 1 }
            } else {
                out += stride(from: min(first, count), through: last, by: -part.step).map { $0 - 1 }
            }
        }
        return out
    }
}
