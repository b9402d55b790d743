/// Some frames of another source, in a given order (``FrameSelection``,
/// reversing): frame `i` is frame `indices[i]` of `base`, with its name and
/// duration. Nothing is decoded until asked for.
public struct SelectedFrames: FrameSource {
    /// The source the frames come from.
    public let base: FrameSource
    /// Indices into `base`, in the order shown; may repeat.
    public let indices: [Int]

    /// Frames `indices` of `base`; each must be a valid index of `base`.
    public init(_ base: FrameSource, indices: [Int]) {
        precondition(indices.allSatisfy { (0..<base.count).contains($0) })
        self.base = base
        self.indices = indices
    }

    public var count: Int { indices.count }
    public func name(at index: Int) -> String { base.name(at: indices[index]) }
    public func frame(at index: Int) throws -> RGBAImage { try base.frame(at: indices[index]) }
    public func duration(at index: Int) -> Rational? { base.duration(at: indices[index]) }
    public func knownSize(at index: Int) -> FrameSize? { base.knownSize(at: indices[index]) }
    public var residentBytes: Int { base.residentBytes }
    public func resampledFrame(at index: Int, width: Int, height: Int) throws -> RGBAImage? {
        try base.resampledFrame(at: indices[index], width: width, height: height)
    }
}
