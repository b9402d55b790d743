// swift-tools-version:6.0
import PackageDescription

/// Each C library is a system library target: headers and link flags come
/// from the Debian -dev package (pkg-config where the library ships a .pc).
func system(_ name: String, pkgConfig: String?, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig,
                   providers: [.apt([apt])])
}

let package = Package(
    name: "Throbber",
    products: [
        .library(name: "ThrobberKit", targets: ["ThrobberKit"]),
        .executable(name: "throbber", targets: ["throbber"]),
    ],
    targets: [
        system("CGIF", pkgConfig: nil, apt: "libgif-dev"),
        system("CPNG", pkgConfig: "libpng", apt: "libpng-dev"),
        system("CJPEG", pkgConfig: "libjpeg", apt: "libjpeg62-turbo-dev"),
        system("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        system("CImageQuant", pkgConfig: "imagequant", apt: "libimagequant-dev"),
        system("CCairo", pkgConfig: "cairo", apt: "libcairo2-dev"),
        .target(
            name: "ThrobberKit",
            dependencies: ["CGIF", "CPNG", "CJPEG", "CZlib", "CImageQuant", "CCairo"]
        ),
        .executableTarget(name: "throbber", dependencies: ["ThrobberKit"]),
        // Helpers both test targets share: expected values computed without ThrobberKit.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ThrobberKitTests", dependencies: ["ThrobberKit", "CGIF", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["throbber", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
