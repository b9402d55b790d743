/// Every failure Throbber reports: what went wrong, phrased so a user can fix
/// it, and which kind of failure it is (the kind picks the exit status).
public struct ThrobberError: Error, CustomStringConvertible, Equatable {
    /// Kinds follow sysexits.h, so scripts can tell bad input from a full disk.
    public enum Kind: Int32, Sendable {
        /// 64, EX_USAGE: a bad command line or an encode setting out of range.
        case usage = 64
        /// 65, EX_DATAERR: an image or a config that cannot be used as it is.
        case data = 65
        /// 66, EX_NOINPUT: an input file or folder is missing or cannot be opened.
        case noInput = 66
        /// 70, EX_SOFTWARE: a bug in Throbber, or a C library that failed.
        case software = 70
        /// 73, EX_CANTCREAT: the output file cannot be created.
        case cannotCreate = 73
        /// 74, EX_IOERR: reading or writing failed part way (a full disk, say).
        case io = 74
    }

    /// What kind of failure this is; it picks ``exitCode``.
    public var kind: Kind
    /// `<what>: <why>`, the what usually being a file name. For an error
    /// about a setting (`field` set), only the why: the caller names the
    /// setting the way its user wrote it (a flag, a JSON path).
    public var message: String
    /// The setting the error is about, when it is about one.
    public var field: SettingField?

    /// An error of `kind` that is not about one setting; `message` reads
    /// `<what>: <why>`.
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

    /// The process exit status for this error (sysexits.h): the kind's raw value.
    public var exitCode: Int32 { kind.rawValue }
    /// The message, led by the setting's library name when there is one.
    public var description: String { field.map { "\($0.rawValue): \(message)" } ?? message }
}
