import ThrobberCodecs
import ThrobberCore

/// Image files and folders of them: still PNG (CgBI included), JPEG and
/// WebP frames, and animated GIF, APNG and WebP, each animation giving its
/// frames with their own durations.
public enum FrameFilesInput: InputKind {
    public static var name: String { "frame files" }

    /// Whatever no other kind claims.
    public static func claims(_ inputs: InputPaths) throws -> Bool { true }

    /// Lists the inputs and reads their headers (animations are decoded
    /// whole, within the memory budget). A single animation brings its loop
    /// count. A single still stored as layers (0 ms frames that play once)
    /// gives its final picture as one frame, with a note, unless
    /// ``InputOptions/keepsLayers``.
    public static func open(_ request: InputRequest) throws -> OpenedInput {
        let paths = try request.paths.listed()
        // An animated WebP keeps only the frames the transform picks.
        let files = try FileFrameSource(
            files: paths, background: request.options.background, budget: request.settings.memory ?? .machineDefault,
            selection: request.settings.transform.frames)
        if let layers = files.inputLayers, !request.options.keepsLayers {
            var input = OpenedInput(
                source: SelectedFrames(files, indices: [files.count - 1]), kind: self, loop: files.inputLoop)
            input.notes.append(
                "\(paths[0]) is a still built up in \(layers) layers (0 ms delays, plays once): writing its final picture as one frame; add --frames 1- to keep the layers as frames"
            )
            return input
        }
        return OpenedInput(source: files, kind: self, loop: files.inputLoop)
    }
}
