import ThrobberKit

/// `throbber completions bash|zsh|fish`: a completion script generated
/// from the declarations.
enum CompletionsCommand: Subcommand {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completions",
        summary: "Print a shell completion script for bash, zsh or fish.",
        overview: """
            Print a completion script for bash, zsh or fish: subcommands, options, \
            the fixed values of options such as encode --format, preset names and file names.

            'make install' installs all three. By hand: bash reads \
            ~/.local/share/bash-completion/completions/throbber, zsh a file _throbber \
            in a folder of $fpath, fish ~/.config/fish/completions/throbber.fish.
            """,
        usage: "throbber completions <bash|zsh|fish>",
        arguments: [
            ArgumentSpec(name: "<bash|zsh|fish>", help: "The shell to complete for.", completion: .choices(shells))
        ],
        options: [.help],
        examples: [
            "throbber completions bash > ~/.local/share/bash-completion/completions/throbber",
            "throbber completions fish > ~/.config/fish/completions/throbber.fish",
            "source <(throbber completions zsh)",
        ])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1, let shell = args.positional.first else {
            throw ThrobberError(
                .usage, args.positional.isEmpty ? "no shell given; give bash, zsh or fish" : "give one shell")
        }
        let commands = CommandTable.visible
        let presets = PresetCatalog.all.map { (name: $0.name, summary: $0.summary) }
        switch shell {
        case "bash": try StandardOutput.write(BashCompletion.script(commands, presets: presets))
        case "zsh": try StandardOutput.write(ZshCompletion.script(commands, presets: presets))
        case "fish": try StandardOutput.write(FishCompletion.script(commands, presets: presets))
        default:
            throw ThrobberError(
                .usage, "unknown shell '\(shell)'; give bash, zsh or fish" + Suggestion.didYouMean(shell, among: shells)
            )
        }
        return 0
    }
}
