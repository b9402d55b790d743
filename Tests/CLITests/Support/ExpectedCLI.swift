import Foundation

/// What the command line offers, written out here independently of the
/// declarations in Sources/throbber, so that a test fails when one place
/// loses a subcommand or an option.
enum ExpectedCLI {
    /// Every subcommand a user sees, in help's order (the hidden `_man` is not one).
    static let subcommands = ["encode", "render", "preset", "presets", "gallery", "info", "check", "completions"]

    /// Long options of each subcommand ("" is `throbber` itself).
    static let options: [String: Set<String>] = [
        "": ["help", "version"],
        "encode": [
            "output", "fps", "delay", "duplicate", "bounce", "speed", "frames", "reverse", "poster-frame", "width",
            "height", "scale", "fit", "resize-filter", "crop", "loop", "quality", "colors", "palette", "dither",
            "lossy",
            "max-bytes", "allow-reduce", "background", "matte", "sort", "glob", "jobs", "max-memory",
            "format", "compression", "sha256", "quiet", "help",
            "trim", "trim-margin", "from", "to",
        ],
        "render": [
            "output", "fps", "duplicate", "bounce", "speed", "poster-frame", "loop", "width", "height", "scale", "fit",
            "resize-filter", "crop", "frames", "reverse", "quality", "colors", "palette", "dither", "lossy",
            "max-bytes", "allow-reduce",
            "background", "matte", "format", "compression", "jobs", "max-memory", "sha256", "quiet", "help",
            "trim", "trim-margin", "theme", "reduced-motion",
        ],
        "preset": [
            "output", "size", "color", "background", "speed", "fps", "scale", "duplicate", "bounce", "poster-frame",
            "loop", "width", "height", "fit", "resize-filter", "crop", "frames", "reverse", "quality", "colors",
            "palette", "dither",
            "lossy", "max-bytes", "allow-reduce", "matte", "format", "compression", "ring", "icon", "print-config",
            "jobs",
            "max-memory", "sha256", "quiet", "help", "trim", "trim-margin", "theme", "reduced-motion", "dark-color",
        ],
        "presets": ["help"],
        "gallery": ["size", "dark", "jobs", "quiet", "help"],
        "info": ["json", "help"],
        "check": ["update", "hashes-only", "diff-dir", "junit", "allow-outside", "jobs", "help"],
        "completions": ["help"],
    ]

    /// A few defaults, as README.md states them (up to the first comma; a
    /// folder of frames plays at 25 fps, other inputs at their own rate).
    static let defaults: [(command: String, option: String, text: String)] = [
        ("encode", "fps", "the input's own rate; 25 for still images"), ("encode", "dither", "1"),
        ("encode", "sort", "natural"), ("encode", "loop", "0"),
        ("encode", "compression", "best"), ("render", "compression", "best"), ("preset", "speed", "1"),
        ("encode", "speed", "1"), ("encode", "fit", "contain"), ("encode", "resize-filter", "lanczos"),
    ]

    /// The preset names, from `throbber presets` (first word of each line).
    static func presetNames() throws -> [String] {
        let r = try Throbber.run(["presets"])
        return r.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    }
}
