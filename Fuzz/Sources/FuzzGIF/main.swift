import FuzzDriver
import ThrobberKit

// GIF bytes through the animation reader (every frame composited) and the
// still-image reader. Errors are expected; a crash, a hang or a leak is not.
fuzzMain { bytes in
    _ = try? DecodedAnimation.decode(bytes, name: "fuzz.gif")
    _ = try? ImageDecoder.decode(bytes, name: "fuzz.gif")
}
