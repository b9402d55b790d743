/// What a frame does to the canvas once its delay is over.
public enum Disposal: Int, Sendable {
    /// Leave the frame's pixels in place (GIF disposal 1, APNG dispose_op NONE).
    case none = 1
    /// Clear the frame's rectangle to transparent (GIF 2, APNG BACKGROUND).
    case background = 2
}
