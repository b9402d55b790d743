import FuzzDriver
import ThrobberKit

// JPEG bytes through the still-image reader (libjpeg-turbo behind it).
fuzzMain { bytes in
    _ = try? ImageDecoder.decode(bytes, name: "fuzz.jpg")
}
