/// A JSON value and where it starts in the file (1-based).
public struct JSONNode: Equatable, Sendable {
    /// The value, with its children.
    public var value: JSON
    /// The line the value starts on, 1 for the first.
    public var line: Int
    /// The column the value starts at, 1 for the first character of the line.
    public var column: Int

    /// A value made by a writer rather than read from a file (no position).
    package init(_ value: JSON) {
        self.init(value: value, line: 0, column: 0)
    }

    init(value: JSON, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }
}
