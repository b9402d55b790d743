/// `throbber encode DIR|FILE... -o OUT`
enum EncodeCommand {
    static let options: [Arguments.Option] = [
        .init(name: "output", short: "o"), .init(name: "fps"), .init(name: "delay"), .init(name: "duplicate"),
        .init(name: "bounce", takesValue: false), .init(name: "loop"), .init(name: "quality"),
        .init(name: "colors"), .init(name: "dither"), .init(name: "matte"), .init(name: "sort"),
        .init(name: "glob"), .init(name: "jobs"), .init(name: "format"), .init(name: "compression"),
        .init(name: "sha256", takesValue: false),
        .init(name: "quiet", short: "q", takesValue: false), .init(name: "help", short: "h", takesValue: false),
    ]

    static let usage = "throbber encode <DIR|FILE>... -o <OUT.gif> [options]"

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: options)
        if args.flag("help") { print(Help.encode, terminator: ""); return }
        try EncodeRequest(args, base: .working).run()
    }
}
