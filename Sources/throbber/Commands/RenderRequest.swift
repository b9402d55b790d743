import ThrobberKit

/// What a render asks for — from `throbber render` or a manifest's render
/// entry — with the config's path resolved against the base folder.
struct RenderRequest {
    var config: String
    var output: SceneOutput

    init(_ args: Arguments, base: BaseFolder) throws {
        guard args.positional.count == 1, let file = args.positional.first else {
            throw ThrobberError(
                .usage,
                args.positional.isEmpty
                    ? "no config file given"
                    : "give one config file, got \(args.positional.count)"
                        + OutputHint.suggestion(args, command: "render", vector: true))
        }
        config = base.resolve(file)
        output = try SceneOutput(args, base: base)
        try output.refuseInputs([config])
    }

    func run() throws {
        try output.write(try ConfigDecoder.load(file: config))
    }
}
