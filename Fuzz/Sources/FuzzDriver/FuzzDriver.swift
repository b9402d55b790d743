import Foundation

// SwiftPM gives an executable its own entry point, so libFuzzer's main is
// not linked: each target starts libFuzzer's driver from its own main.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The target's body; a C callback cannot capture it, so it waits here.
nonisolated(unsafe) private var target: ([UInt8]) -> Void = { _ in }

/// Runs libFuzzer with the process's arguments, calling `body` with each
/// input's bytes, and exits with libFuzzer's status. Errors thrown inside
/// `body` are expected and should be swallowed; a crash, a hang or a leak
/// is what libFuzzer reports.
public func fuzzMain(_ body: @escaping ([UInt8]) -> Void) -> Never {
    target = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(
        runDriver(&argc, &argv) { data, size in
            target(Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        })
}
