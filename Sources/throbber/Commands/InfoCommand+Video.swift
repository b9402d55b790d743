import ThrobberKit

/// `throbber info clip.mp4`: what a video is, and what `encode` makes of it.
extension InfoCommand {
    /// Prints the video at `path` as text or, with `json`, one JSON object.
    static func video(_ path: String, json: Bool) throws {
        let file = try VideoFile(path: path, budget: .machineDefault, threads: 1)
        let info = file.info
        let gif = VideoTiming(
            starts: file.frameStarts, length: file.windowLength,
            shortest: AnimationFormat.gif.limits.maxFPS.map { Rational(1, Int64($0)) })
        let refusal = encodeRefusal(file)
        if json {
            try StandardOutput.write(videoJSON(info, gifFrames: gif.frames.count, refusal: refusal) + "\n")
        } else {
            try StandardOutput.write(videoText(info, path: path, gifFrames: gif.frames.count, refusal: refusal))
        }
    }

    /// Why `throbber encode FILE -o out.gif` would refuse the clip with its
    /// defaults, from the checks it makes before decoding (the decoder's
    /// memory with its threads, the frame count and length, the encoder's
    /// memory plan); nil when it would not.
    static func encodeRefusal(_ file: VideoFile) -> String? {
        let settings = EncodeSettings()
        do {
            try file.checkDecoding(threads: settings.jobs, budget: settings.memory ?? .machineDefault)
            let request = InputRequest(
                paths: InputPaths([file.path], list: FrameList()), format: .gif, settings: settings,
                options: InputOptions())
            let input = try VideoInput.frames(of: file, request: request)
            let plan = EncodePlan(settings: settings, input: input, format: .gif, options: request.options)
            try AnimationEncoder(format: .gif, settings: plan.settings).check(input.source)
            return nil
        } catch let error as ThrobberError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// "30", "30000/1001 (29.97)" or "variable".
    static func rateText(_ rate: Rational?) -> String {
        guard let rate else { return "variable" }
        if rate.denominator == 1 { return "\(rate.numerator)" }
        return "\(rate) (\(cFormat("%.3g", rate.doubleValue)))"
    }

    /// "MP4 (brand isom)", "WebM", or FFmpeg's name of the container.
    static func fileTypeText(_ info: VideoInfo) -> String {
        guard let type = info.fileType else { return info.container }
        // A brand is four characters, padded with spaces ("qt  ").
        let brand = info.brand.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        return brand.map { "\(type) (brand \($0))" } ?? type
    }

    /// The display matrix as ffprobe reports it and what it does: "rotation
    /// -90 (shown turned 90° clockwise)"; nil without a turn.
    static func rotationText(_ info: VideoInfo) -> String? {
        guard let degrees = info.matrixRotation, info.rotation != 0 else { return nil }
        let turn =
            switch info.rotation {
            case 90: "90° clockwise"
            case 270: "90° counterclockwise"
            default: "\(info.rotation)°"
            }
        return "rotation \(degrees) (shown turned \(turn))"
    }

    private static func videoText(_ info: VideoInfo, path: String, gifFrames: Int, refusal: String?) -> String {
        let size = "\(info.displayWidth)x\(info.displayHeight)"
        var out = "\(path): video, \(fileTypeText(info)), \(ClockTime.text(info.duration))\n"
        let kind = info.fileType == nil ? "" : fileTypeText(info) + "; "
        out += "  container  \(kind)FFmpeg: \(info.formatName) (\(info.container))\n"
        out += "  codec      \(info.codec) (decoder \(info.decoder)), \(info.pixelFormat)\n"
        var shape = "\(info.codedWidth)x\(info.codedHeight)"
        if info.sampleAspect != Rational(1) { shape += ", pixel aspect \(info.sampleAspect)" }
        if let turn = rotationText(info) { shape += ", " + turn }
        if info.flip { shape += ", mirrored" }
        if shape != "\(info.codedWidth)x\(info.codedHeight)" { shape += ", shown as \(size)" }
        out += "  size       \(shape)\n"
        let rate = info.frameRate == nil ? "a variable rate" : "\(rateText(info.frameRate)) fps"
        out += "  frames     \(info.frameCount) frames at \(rate)\n"
        out +=
            "  color      matrix \(info.colorMatrix), range \(info.colorRange), primaries \(info.colorPrimaries), transfer \(info.colorTransfer), chroma \(info.chromaLocation)\n"
        out += "  alpha      \(info.hasAlpha ? "yes" : "no")\n"
        let frames =
            gifFrames == info.frameCount
            ? "every frame"
            : "every frame (GIF: \(gifFrames) of them, as it shows 50 fps at most)"
        if let refusal {
            out += "encode refuses it with its defaults: \(refusal)\n"
        } else {
            out +=
                "encode makes a \(size) animation of \(ClockTime.text(info.duration)) with \(frames); --width and --fps make it smaller\n"
        }
        return out
    }

    private static func videoJSON(_ info: VideoInfo, gifFrames: Int, refusal: String?) -> String {
        func field(_ k: String, _ v: String) -> String { "\"\(k)\": \(v)" }
        func text(_ s: String) -> String { ConfigJSON.quote(s) }
        return "{"
            + [
                field("format", "\"video\""), field("container", text(info.container)),
                field("format_name", text(info.formatName)), field("file_type", info.fileType.map(text) ?? "null"),
                field("brand", info.brand.map(text) ?? "null"),
                field("codec", text(info.codec)), field("decoder", text(info.decoder)),
                field("width", "\(info.displayWidth)"), field("height", "\(info.displayHeight)"),
                field("coded_width", "\(info.codedWidth)"), field("coded_height", "\(info.codedHeight)"),
                field("rotation", "\(info.rotation)"),
                field("display_rotation", "\(info.matrixRotation ?? 0)"), field("mirrored", "\(info.flip)"),
                field("sample_aspect", "\"\(info.sampleAspect)\""), field("pixel_format", text(info.pixelFormat)),
                field("color_matrix", text(info.colorMatrix)), field("color_range", text(info.colorRange)),
                field("color_primaries", text(info.colorPrimaries)), field("color_transfer", text(info.colorTransfer)),
                field("chroma_location", text(info.chromaLocation)), field("alpha", "\(info.hasAlpha)"),
                field("frame_rate", info.frameRate.map { "\"\($0)\"" } ?? "\"variable\""),
                field("frame_count", "\(info.frameCount)"),
                field("duration_ms", milliseconds(info.duration)),
                field("gif_frame_count", "\(gifFrames)"),
                field("encode_refusal", refusal.map(text) ?? "null"),
            ]
            .joined(separator: ", ") + "}"
    }
}
