import FuzzDriver
import ThrobberKit

// Config JSON through the parser, the validator and the budgets, and, when
// it is valid, the scene clock (nothing is drawn). Paths inside resolve
// against a folder that does not exist, so no file is read.
fuzzMain { bytes in
    guard let config = try? ConfigDecoder.decode(bytes, file: "fuzz.json", baseDirectory: "/nonexistent-fuzz")
    else { return }
    if case .layers(let layers) = config.content { _ = try? SceneClock(config: config, layers: layers) }
}
