// swift-tools-version:6.0
import PackageDescription

/// Each C library is a system library target: headers and link flags come
/// from the Debian -dev package (pkg-config where the library ships a .pc,
/// else the module map's `link`), and Swift calls its functions directly.
/// FFmpeg (CFFmpeg) is the one exception: libavformat and libavcodec are not
/// linked, and its shim fills a table of the functions video reading calls,
/// typed from FFmpeg's own prototypes, on the first video read
/// (docs/architecture.md, "Video").
func system(_ name: String, pkgConfig: String?, apt: String) -> Target {
    .systemLibrary(
        name: name, path: "Sources/\(name)", pkgConfig: pkgConfig,
        providers: [.apt([apt])])
}

/// The library is one module per pipeline stage; each may use only the
/// modules below it (docs/architecture.md):
///
///   ThrobberCore    image, color, exact time, timeline, JSON, errors, output file
///   ThrobberCodecs  GIF, PNG/CgBI/APNG, JPEG and WebP readers and writers, Lottie, frame sources
///   ThrobberEncode  the encoder skeleton, input registry, frame transforms, its formats, palettes, frame planning
///   ThrobberScene   configs, the cairo renderer, paths and text (HarfBuzz, fontconfig), presets
///   ThrobberCheck   regression manifests, animation diffs, library versions
///   ThrobberKit     the umbrella: one import for library users
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
        system("CDeflate", pkgConfig: "libdeflate", apt: "libdeflate-dev"),
        system("CZopfli", pkgConfig: nil, apt: "libzopfli-dev"),
        system("CImageQuant", pkgConfig: "imagequant", apt: "libimagequant-dev"),
        system("CCairo", pkgConfig: nil, apt: "libcairo2-dev"),
        system("CPixman", pkgConfig: "pixman-1", apt: "libpixman-1-dev"),
        system("CSwscale", pkgConfig: nil, apt: "libswscale-dev"),
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: nil,
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        system("CRLottie", pkgConfig: nil, apt: "librlottie-dev"),
        system("CWebP", pkgConfig: nil, apt: "libwebp-dev"),
        system("CHarfBuzz", pkgConfig: "harfbuzz", apt: "libharfbuzz-dev"),
        system("CFontconfig", pkgConfig: "fontconfig", apt: "libfontconfig-dev"),
        .target(name: "ThrobberCore"),
        .target(
            name: "ThrobberCodecs",
            dependencies: [
                "ThrobberCore", "CGIF", "CPNG", "CJPEG", "CZlib", "CDeflate", "CZopfli", "CRLottie", "CWebP",
                "CFFmpeg",
            ]),
        .target(
            name: "ThrobberEncode",
            dependencies: ["ThrobberCore", "ThrobberCodecs", "CImageQuant", "CPixman", "CSwscale"]),
        .target(
            name: "ThrobberScene",
            dependencies: ["ThrobberCore", "ThrobberCodecs", "ThrobberEncode", "CCairo", "CHarfBuzz", "CFontconfig"]),
        .target(
            name: "ThrobberCheck",
            dependencies: [
                "ThrobberCore", "ThrobberCodecs", "ThrobberEncode", "CGIF", "CPNG", "CZlib", "CDeflate", "CZopfli",
                "CImageQuant", "CPixman", "CWebP", "CRLottie", "CCairo", "CSwscale", "CHarfBuzz", "CFontconfig",
                "ThrobberScene",
            ]),
        .target(
            name: "ThrobberKit",
            dependencies: ["ThrobberCore", "ThrobberCodecs", "ThrobberEncode", "ThrobberScene", "ThrobberCheck"]),
        .executableTarget(name: "throbber", dependencies: ["ThrobberKit"]),
        // Helpers every test target shares: independent decoders and references
        // (Reference/) and harnesses that drive the library (Harness/).
        .target(name: "TestSupport", dependencies: ["ThrobberKit", "CGIF"], path: "Tests/TestSupport"),
        // Tests laid out like the modules they test, and the CLI by subcommand.
        .testTarget(name: "CoreTests", dependencies: ["ThrobberKit", "TestSupport"]),
        .testTarget(name: "CodecTests", dependencies: ["ThrobberKit", "TestSupport"]),
        .testTarget(name: "EncodeTests", dependencies: ["ThrobberKit", "TestSupport"]),
        .testTarget(name: "SceneTests", dependencies: ["ThrobberKit", "TestSupport"]),
        .testTarget(name: "CheckTests", dependencies: ["ThrobberKit", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["throbber", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
