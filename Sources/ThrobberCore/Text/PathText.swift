/// Path arithmetic on strings, with the rules of NSString's path methods
/// (which FoundationEssentials does not have): trailing slashes do not make
/// a component, "/" stays "/", and a name's leading dot is not an extension.
package enum PathText {
    /// The last component: "b" for "/a/b" and "/a/b/", "/" for "/".
    package static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// All but the last component: "/a" for "/a/b", "/" for "/a", "" for "a".
    package static func parent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = withoutTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The extension of the last component, without its dot: "png" for
    /// "a/b.png", "" for "a/b" and for ".hidden".
    package static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path` without its last component's extension and that dot: "a/b"
    /// for "a/b.png" and for "a/b.".
    package static func deletingExtension(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        let name = lastComponent(trimmed)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return trimmed }
        return String(trimmed.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var rest = Substring(path)
        while rest.count > 1, rest.last == "/" { rest = rest.dropLast() }
        return String(rest)
    }
}

extension StringProtocol {
    /// Without leading and trailing white space (newlines included).
    package func trimmedWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}
