/// A subcommand: its declaration, and what it does with the arguments
/// parsed by the declared options. `main.swift` dispatches through
/// `CommandTable`, prints help and maps errors to exit codes.
protocol Subcommand: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Returns the exit status (0 unless the subcommand has its own, as `check`).
    static func run(_ args: Arguments) throws -> Int32
}
