/// Every subcommand, in the order help, the man page and completions list them.
enum CommandTable {
    static let all: [any Subcommand.Type] = [
        EncodeCommand.self, RenderCommand.self, PresetCommand.self, PresetsCommand.self, GalleryCommand.self,
        InfoCommand.self, CheckCommand.self, CompletionsCommand.self, ManCommand.self,
    ]

    /// The declarations of the subcommands a user sees (not the hidden ones).
    static var visible: [CommandSpec] { all.map { $0.spec }.filter { !$0.hidden } }

    static func named(_ name: String) -> (any Subcommand.Type)? { all.first { $0.spec.name == name } }
}
