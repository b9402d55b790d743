import Foundation
import ThrobberKit

/// JPEG bytes through the still-image reader (libjpeg-turbo behind it).
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? ImageDecoder.decode(Array(UnsafeBufferPointer(start: data, count: size)), name: "fuzz.jpg")
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
