import ThrobberKit

/// `throbber _man` (hidden): the manual page, in mdoc, as `man/throbber.1`
/// is committed. `make man` writes it there.
enum ManCommand: Subcommand {
    static let spec = CommandSpec(
        name: "_man",
        summary: "Print the manual page.",
        overview:
            "Print the manual page (mdoc) generated from the option declarations; 'make man' writes it to man/throbber.1.",
        usage: "throbber _man",
        options: [.help],
        hidden: true)

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.isEmpty else { throw ThrobberError(.usage, "'_man' takes no arguments") }
        try StandardOutput.write(ManPage.text(root: RootCommand.spec, commands: CommandTable.visible))
        return 0
    }
}
