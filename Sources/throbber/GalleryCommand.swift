import FoundationEssentials
import Glibc
import ThrobberKit

/// `throbber gallery DIR`: every preset as GIF, APNG and WebP, and an index.html
/// that shows them side by side (for looking at them in a browser).
enum GalleryCommand: Subcommand {
    static let spec = CommandSpec(
        name: "gallery",
        summary: "Write every preset as GIF, APNG and WebP, with an index.html.",
        overview: "Write every preset as GIF, APNG and WebP, and an index.html showing them.",
        usage: "throbber gallery <DIR> [--size PX]",
        arguments: [
            ArgumentSpec(name: "<DIR>", help: "The folder to write (created if missing).", completion: .folders)
        ],
        options: [
            OptionSpec("size", value: "px", help: "The larger side of every loader.", default: "each preset's own"),
            .jobs,
            OptionSpec("quiet", short: "q", help: "No summary line."),
            .help,
        ],
        examples: ["throbber gallery gallery/ --size 96"])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1, let dir = args.positional.first else {
            throw ThrobberError(.usage, "give one output folder")
        }
        try Output.makeFolder(dir)
        var options = PresetOptions()
        options.size = try args.int("size", in: 8...4096)
        let jobs = try args.int("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        var rows: [String] = []
        for preset in PresetCatalog.all {
            let job = try SceneJob(config: try preset.config(options), jobs: jobs)
            var cells = ""
            for format in AnimationFormat.allCases {
                let file = "\(preset.name).\(format.fileExtensions[0])"
                let out = try OutputFile(path: dir + "/" + file)  // discarded on release unless committed
                let report = try job.encode(to: out, format: format)
                try out.commit()
                cells +=
                    "<td><img id=\"\(preset.name)-\(format.rawValue)\" src=\"\(file)\" width=\"\(report.width)\" height=\"\(report.height)\" alt=\"\(preset.name) \(format.rawValue)\"></td>"
            }
            rows.append("<tr><th>\(preset.name)</th>\(cells)<td>\(html(preset.summary))</td></tr>")
        }
        let page = """
            <!doctype html>
            <html lang="en"><meta charset="utf-8"><title>Throbber presets</title>
            <style>body{font:14px sans-serif;margin:16px;background:#fff}td,th{padding:6px 10px;text-align:left}
            img{display:block}</style>
            <table><tr><th>preset</th>\(AnimationFormat.allCases.map { "<th>\($0.limits.name)</th>" }.joined())<th></th></tr>
            \(rows.joined(separator: "\n"))
            </table></html>

            """
        let index = try OutputFile(path: dir + "/index.html")
        try index.write(Array(page.utf8))
        try index.commit()
        if !args.flag("quiet") {
            StandardError.write(
                "wrote \(PresetCatalog.all.count * AnimationFormat.allCases.count) images and index.html to \(dir)\n")
        }
        return 0
    }

    private static func html(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
