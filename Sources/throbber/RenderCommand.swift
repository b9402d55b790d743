/// `throbber render CONFIG.json [-o OUT]`
enum RenderCommand {
    static let options: [Arguments.Option] = [
        .init(name: "output", short: "o"), .init(name: "format"), .init(name: "compression"), .init(name: "jobs"),
        .init(name: "sha256", takesValue: false),
        .init(name: "quiet", short: "q", takesValue: false), .init(name: "help", short: "h", takesValue: false),
    ]
    static let usage = "throbber render <CONFIG.json> [-o <OUT.gif>] [options]"

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: options)
        if args.flag("help") { print(Help.render, terminator: ""); return }
        try RenderRequest(args, base: .working).run()
    }
}
