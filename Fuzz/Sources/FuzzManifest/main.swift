import FuzzDriver
import ThrobberKit

// `check` manifest JSON through its reader, and back to JSON.
fuzzMain { bytes in
    if let m = try? Manifest.parse(bytes, file: "/nonexistent-fuzz/m.json") { _ = m.serialized() }
}
