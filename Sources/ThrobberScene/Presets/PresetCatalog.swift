import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Every built-in loader, in the order `throbber presets` lists them.
public enum PresetCatalog {
    /// The three seeds (`ease`, `dots`, `dots-flip`) first, then the shape
    /// loaders, then those with words and drawn lines.
    public static let all: [Preset] =
        [
            SeedPresets.ease, SeedPresets.dots, SeedPresets.dotsFlip,
        ] + ShapePresets.all + WordPresets.all

    /// The preset called `name` (exact, case-sensitive), or nil.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }
}
