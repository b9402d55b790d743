import Foundation
import ThrobberKit

/// Config JSON through the parser, the validator and the budgets, and, when
/// it is valid, the scene clock (nothing is drawn). Paths inside resolve
/// against a folder that does not exist, so no file is read.
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let config = try? ConfigDecoder.decode(bytes, file: "fuzz.json", baseDirectory: "/nonexistent-fuzz")
    else { return 0 }
    if case .layers(let layers) = config.content { _ = try? SceneClock(config: config, layers: layers) }
    return 0
}

// SwiftPM gives an executable its own entry point, so libFuzzer's main is
// not linked: start its driver from here.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runDriver(&argc, &argv, fuzz))
