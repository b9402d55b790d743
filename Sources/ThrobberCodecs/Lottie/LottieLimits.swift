import ThrobberCore

/// Values a Lottie file may hold and still be drawn in reasonable time:
/// rlottie accepts any number, and a stroke 10⁹ pixels wide or a repeater
/// of 10⁹ copies keeps it busy for seconds per frame. Such files are
/// refused before drawing, naming the JSON path, as configs are.
enum LottieLimits {
    /// The largest magnitude of an animated property's value (positions,
    /// sizes, stroke widths, scales in percent, angles in degrees): far
    /// beyond any drawable canvas (16384 pixels a side), far below what
    /// slows rlottie down (10⁶ draws as fast as 10⁴; 10⁹ takes 80 ms a
    /// frame at 240 pixels).
    static let maxValue = 1e7
    /// The most copies a repeater may make.
    static let maxCopies = 1000.0
    /// The most layers and shape items a frame may draw, repeater copies
    /// and precompositions multiplied out (``LottieWork``): about 115 MB
    /// for each rlottie object and 0.4 s a frame at 100 pixels (librlottie
    /// 0.1 on this project's 2-core benchmark machine).
    static let maxItems = 400_000
    /// The most item drawings in one loop: items a frame × frames, as a
    /// config may make (`SceneBudget`): 12·10⁶ took 25 s of wall time at
    /// 512×512 on two threads, every frame drawn for the survey and again
    /// for the encode.
    static let maxDrawings = 5_000_000
    /// Bytes rlottie holds for each item it builds (``LottieWork``).
    static let bytesPerItem = 320

    /// Walks `top`; throws ``ThrobberError/Kind/data`` naming `path` and
    /// the JSON path of the first value over a limit. Keyframe times
    /// (`t`) are not values and are not checked.
    static func check(_ top: JSONNode, path: String) throws {
        var stack: [(node: JSONNode, at: String, inValue: Bool)] = [(top, "", false)]
        while let (node, at, inValue) = stack.popLast() {
            switch node.value {
            case .object(let members):
                let repeater = members.contains { $0.key == "ty" && $0.value.value == .string("rp") }
                for (key, child) in members.reversed() where !(inValue && key == "t") {
                    let childAt = at.isEmpty ? key : "\(at).\(key)"
                    if repeater && key == "c" { try checkCopies(child, at: childAt, path: path) }
                    stack.append((child, childAt, inValue || key == "k"))
                }
            case .array(let items):
                for (i, child) in items.enumerated().reversed() { stack.append((child, "\(at)[\(i)]", inValue)) }
            case .number(let text) where inValue:
                if let v = Double(text), !(abs(v) <= maxValue) {
                    throw ThrobberError(
                        .data,
                        "\(path): \(at): \(text) is beyond what can be drawn (at most \(Int(maxValue)) in magnitude)")
                }
            default:
                break
            }
        }
    }

    /// A repeater's copies: a number, or an animated property whose values
    /// are, none above ``maxCopies``.
    private static func checkCopies(_ node: JSONNode, at: String, path: String) throws {
        var stack = [node]
        while let n = stack.popLast() {
            switch n.value {
            case .object(let m): stack += m.filter { $0.key != "t" }.map(\.value)
            case .array(let a): stack += a
            case .number(let text):
                if let v = Double(text), !(v <= maxCopies) {
                    throw ThrobberError(
                        .data, "\(path): \(at): a repeater of \(text) copies is more than \(Int(maxCopies))")
                }
            default: break
            }
        }
    }
}
