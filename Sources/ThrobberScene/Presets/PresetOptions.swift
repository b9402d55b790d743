import FoundationEssentials
import Glibc
import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// What the `preset` command can change in a built-in loader.
public struct PresetOptions: Sendable {
    /// Larger side in pixels.
    public var size: Int?
    /// The loader's main color (the theme's `accent`).
    public var color: Color?
    /// The accent on dark pages; nil: `color` when it is given, else the
    /// preset's own dark color.
    public var darkColor: Color?
    /// The canvas color; nil: transparent. Unless it is opaque, GIF output
    /// blends soft edges onto white, so they look right on a light page.
    public var background: Color?
    /// 2 plays twice as fast.
    public var speed = Rational(1)
    /// Frames per second; nil: the preset's own rate.
    public var fps: Rational?
    /// Pixels per point.
    public var scale: Int?
    /// `ease` only: the user's own ring and icon images.
    public var ring: String?, icon: String?

    /// No changes: every preset as designed.
    public init() {}
}
