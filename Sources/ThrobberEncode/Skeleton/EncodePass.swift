/// One pass over the frames of multi-pass work (``AnimationEncoder/passes``):
/// a byte budget's search reads the frames again for each setting it tries.
public struct EncodePass: Equatable, Sendable, CustomStringConvertible {
    /// The pass, counting from 1.
    public var number: Int
    /// The most passes the search plans; a pass past them (more lossy
    /// levels written again from the frames, the smallest file written
    /// whole for a message) has no `most` in its description.
    public var most: Int
    /// What the pass tries: "lower bound at 16 colors, quality 10, lossy
    /// 200", "32 colors, quality 20, lossy 0–200".
    public var trying: String

    /// A pass of work planned to take at most `most` passes.
    public init(number: Int, most: Int, trying: String) {
        self.number = number
        self.most = most
        self.trying = trying
    }

    /// "budget pass 2 of ≤4: 32 colors, quality 20, lossy 0–200".
    public var description: String {
        "budget pass \(number)\(number <= most ? " of ≤\(most)" : ""): \(trying)"
    }
}
