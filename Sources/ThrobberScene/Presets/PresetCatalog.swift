import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Every built-in loader, in the order `throbber presets` lists them.
public enum PresetCatalog {
    public static let all: [Preset] = [
        SeedPresets.ease, SeedPresets.dots, SeedPresets.dotsFlip,
    ] + ShapePresets.all

    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }
}
