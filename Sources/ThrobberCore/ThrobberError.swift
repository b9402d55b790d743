/// Every failure Throbber reports: what went wrong, phrased so a user can fix
/// it, and which kind of failure it is (the kind picks the exit status).
public struct ThrobberError: Error, CustomStringConvertible, Equatable {
    /// Kinds follow sysexits.h, so scripts can tell bad input from a full disk.
    public enum Kind: Int32, Sendable {
        case usage = 64          // EX_USAGE: bad command line
        case data = 65           // EX_DATAERR: bad image or config data
        case noInput = 66        // EX_NOINPUT: an input file is missing
        case software = 70       // EX_SOFTWARE: a bug or a library failure
        case cannotCreate = 73   // EX_CANTCREAT: the output cannot be created
        case io = 74             // EX_IOERR: reading or writing failed
    }

    public var kind: Kind
    /// `<what>: <why>`, the what usually being a file name. For an error
    /// about a setting (`field` set), only the why: the caller names the
    /// setting the way its user wrote it (a flag, a JSON path).
    public var message: String
    /// The setting the error is about, when it is about one.
    public var field: SettingField?

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// An invalid setting: `message` says what it must be and what it was.
    public init(_ kind: Kind, field: SettingField, _ message: String) {
        self.kind = kind
        self.message = message
        self.field = field
    }

    public var exitCode: Int32 { kind.rawValue }
    /// The message, led by the setting's library name when there is one.
    public var description: String { field.map { "\($0.rawValue): \(message)" } ?? message }
}
