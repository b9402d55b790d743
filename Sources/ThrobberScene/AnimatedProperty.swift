import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// Animated properties (CONFIG.md, "Animations").
public enum AnimatedProperty: String, CaseIterable, Sendable {
    case rotate, rotateY, scale, scaleX, scaleY, opacity, translateX, translateY, start, end
}
