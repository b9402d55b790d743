import Foundation
import ThrobberKit

/// PNG, APNG and CgBI bytes through the animation reader (every frame composited) and the
/// still-image reader. Errors are expected; a crash, a hang or a leak is not.
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? DecodedAnimation.decode(bytes, name: "fuzz.png")
    _ = try? ImageDecoder.decode(bytes, name: "fuzz.png")
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
