import FuzzDriver
import ThrobberKit

// PNG, APNG and CgBI bytes through the animation reader (every frame
// composited) and the still-image reader.
fuzzMain { bytes in
    _ = try? DecodedAnimation.decode(bytes, name: "fuzz.png")
    _ = try? ImageDecoder.decode(bytes, name: "fuzz.png")
}
