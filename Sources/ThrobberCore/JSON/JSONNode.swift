/// A JSON value and where it starts in the file (1-based).
public struct JSONNode: Equatable, Sendable {
    public var value: JSON
    public var line: Int
    public var column: Int
}
