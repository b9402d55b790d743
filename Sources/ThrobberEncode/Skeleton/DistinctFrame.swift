import ThrobberCodecs
import ThrobberCore

/// A frame of the timeline that differs from the one before it, with what a
/// viewer shows next.
struct DistinctFrame {
    /// The prepared pixels.
    var image: RGBAImage
    /// The timeline entry where it starts.
    var entry: Int
    /// The entry where the next distinct frame starts (the end of the loop
    /// for the last frame): the frame lasts from `entry` to here.
    var endEntry: Int
    /// The frame shown after this one; for the last, the first, which a
    /// looping viewer shows next.
    var next: RGBAImage
}
