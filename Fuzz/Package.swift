// swift-tools-version:6.0
// libFuzzer targets for Throbber's readers (issue #14). Built and run by
// `make fuzz` (scripts/fuzz), which passes -sanitize=fuzzer,address so that
// every Swift module, ThrobberKit's included, is instrumented.
import PackageDescription

let names = ["FuzzGIF", "FuzzPNG", "FuzzJPEG", "FuzzConfig", "FuzzManifest"]

let package = Package(
    name: "ThrobberFuzz",
    dependencies: [.package(name: "Throbber", path: "..")],
    targets: names.map {
        .executableTarget(
            name: $0, dependencies: [.product(name: "ThrobberKit", package: "Throbber")])
    }
)
