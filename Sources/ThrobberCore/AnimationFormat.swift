/// The animated formats Throbber reads and writes. What each can express
/// and the type that writes it are registered in ThrobberEncode
/// (`AnimationFormat+Encoder.swift`).
public enum AnimationFormat: String, Sendable, CaseIterable {
    case gif, apng
}
