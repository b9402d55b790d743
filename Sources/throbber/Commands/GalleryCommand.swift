import FoundationEssentials
import Glibc
import ThrobberKit

/// `throbber gallery DIR`: every preset as GIF, APNG, WebP and SVG on a
/// light and a dark page, and an index.html that shows them side by side
/// (for looking at them in a browser).
enum GalleryCommand: Subcommand {
    static let spec = CommandSpec(
        name: "gallery",
        summary: "Write every preset as GIF, APNG, WebP and SVG, for light and dark pages, with an index.html.",
        overview: """
            Write every preset as GIF, APNG, WebP and SVG, and an index.html showing them \
            on a light page (#ffffff) and a dark one side by side.

            A GIF has no partial alpha, so each preset gets two: NAME.gif with soft edges \
            blended onto white (as 'throbber preset' makes it) and NAME-dark.gif blended \
            onto the dark page's color (preset --matte). APNG and WebP keep partial \
            alpha and NAME.svg is vectors: the same NAME.png, NAME.webp and NAME.svg \
            show on both pages, the SVG at the size of the others. Every file is byte \
            for byte what 'throbber preset' writes with the same options.
            """,
        usage: "throbber gallery <DIR> [--size PX] [--dark COLOR]",
        arguments: [
            ArgumentSpec(name: "<DIR>", help: "The folder to write (created if missing).", completion: .folders)
        ],
        options: [
            OptionSpec("size", value: "px", help: "The larger side of every loader.", default: "each preset's own"),
            OptionSpec(
                "dark", value: "color",
                help: "The dark page's color, and the matte of the dark GIFs (#RRGGBB or a CSS name).",
                default: "#1e1e1e"),
            .jobs,
            OptionSpec("quiet", short: "q", help: "No summary line."),
            .help,
        ],
        examples: ["throbber gallery gallery/ --size 96", "throbber gallery gallery/ --dark '#000000'"])

    /// The dark page's color unless --dark says otherwise.
    static let defaultDark = Color(r: 0x1e, g: 0x1e, b: 0x1e)

    /// Writes every preset in every format, and an index page showing
    /// them on a light and a dark background, to the folder given.
    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1, let dir = args.positional.first else {
            throw ThrobberError(.usage, "give one output folder")
        }
        let dark = try darkColor(args)
        try Output.makeFolder(dir)
        var options = PresetOptions()
        options.size = try args.int("size", in: 8...4096)
        let jobs = try args.int("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let darkText = html(dark.description)
        var rows: [String] = []
        var written = 0
        for preset in PresetCatalog.all {
            let config = try preset.config(options)
            let job = try SceneJob(config: config, jobs: jobs)
            var darkJob = job
            darkJob.settings.alpha.matte = dark
            var light = ""
            var shade = ""
            var frameSize = (0, 0)
            for format in AnimationFormat.allCases {
                let file = "\(preset.name).\(format.fileExtensions[0])"
                var size = try write(job, format, to: dir + "/" + file)
                frameSize = size
                light += cell(preset.name, format.rawValue, file: file, size: size, page: "#ffffff")
                var darkFile = file
                if format == .gif {
                    darkFile = "\(preset.name)-dark.\(format.fileExtensions[0])"
                    size = try write(darkJob, format, to: dir + "/" + darkFile)
                    written += 1
                }
                shade += cell(preset.name, format.rawValue, file: darkFile, size: size, page: darkText, dark: true)
                written += 1
            }
            // Shown at the frames' size in pixels: the SVG's own is in points.
            let svg = "\(preset.name).svg"
            try write(config, to: dir + "/" + svg)
            light += cell(preset.name, "svg", file: svg, size: frameSize, page: "#ffffff")
            shade += cell(preset.name, "svg", file: svg, size: frameSize, page: darkText, dark: true)
            written += 1
            rows.append("<tr><th>\(preset.name)</th>\(light)\(shade)<td>\(html(preset.summary))</td></tr>")
        }
        let index = try OutputFile(path: dir + "/index.html")
        try index.write(Array(page(rows: rows, darkText: darkText).utf8))
        try index.commit()
        if !args.flag("quiet") {
            StandardError.write("wrote \(written) images and index.html to \(dir)\n")
        }
        return 0
    }

    /// The color --dark gives (opaque), or the default.
    private static func darkColor(_ args: Arguments) throws -> Color {
        if let text = args.string("dark") {
            guard let color = Color(parsing: text), color.a == 255 else {
                throw ThrobberError(
                    .usage,
                    "--dark expects an opaque color, \(Color.syntaxHelp), got '\(text)'"
                        + Suggestion.didYouMean(text, among: Color.names))
            }
            return color
        }
        return defaultDark
    }

    /// The index page: a table of `rows`, the dark half on `darkText`.
    private static func page(rows: [String], darkText: String) -> String {
        let names = AnimationFormat.allCases.map(\.limits.name) + [VectorFormat.svg.name]
        let heads = names.map { "<th>\($0)</th>" }.joined()
        let darkHeads = names.map { "<th class=\"dark\">\($0)</th>" }.joined()
        return """
            <!doctype html>
            <html lang="en"><meta charset="utf-8"><title>Throbber presets</title>
            <style>body{font:14px sans-serif;margin:16px;background:#fff}td,th{padding:6px 10px;text-align:left}
            img{display:block}.dark{background:\(darkText);color:#ddd}</style>
            <table><tr><th></th><th colspan="\(names.count)">on #ffffff</th>\
            <th class="dark" colspan="\(names.count)">on \(darkText)</th><th></th></tr>
            <tr><th>preset</th>\(heads)\(darkHeads)<th></th></tr>
            \(rows.joined(separator: "\n"))
            </table></html>

            """
    }

    /// Encodes `job` to `path`; returns the size written.
    private static func write(_ job: SceneJob, _ format: AnimationFormat, to path: String) throws -> (Int, Int) {
        let out = try OutputFile(path: path)  // discarded on release unless committed
        let report = try job.encode(to: out, format: format)
        try out.commit()
        return (report.width, report.height)
    }

    /// Writes `config` as an SVG at `path`.
    private static func write(_ config: SceneConfig, to path: String) throws {
        let out = try OutputFile(path: path)  // discarded on release unless committed
        try out.write(try VectorFormat.svg.data(for: config))
        try out.commit()
    }

    /// One image of the table (`format`: gif, apng, webp or svg), with the
    /// page color it is shown on.
    private static func cell(
        _ name: String, _ format: String, file: String, size: (Int, Int), page: String, dark: Bool = false
    ) -> String {
        let id = "\(name)-\(format)\(dark ? "-dark" : "")"
        return
            "<td\(dark ? " class=\"dark\"" : "")><img id=\"\(id)\" src=\"\(file)\" width=\"\(size.0)\" height=\"\(size.1)\" data-page=\"\(page)\" alt=\"\(name) \(format)\(dark ? " on dark" : "")\"></td>"
    }

    private static func html(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
