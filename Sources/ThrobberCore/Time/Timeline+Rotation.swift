/// Rotating a loop: the same entries in the same cyclic order, each shown
/// as long as before, starting at another one. Viewers that show only the
/// first frame (mail clients, reduced-motion settings, previews) then show
/// the one chosen.
extension Timeline {
    /// The loop started at entry `first` (0-based): entries `first...`,
    /// then `..<first`, with their durations. Traps when `first` is not an
    /// entry index.
    public func rotated(toStartAt first: Int) -> Timeline {
        precondition(entries.indices.contains(first))
        guard first > 0 else { return self }
        let order = Array(first..<entries.count) + Array(0..<first)
        var rotated = Timeline(
            durations: order.map { start(of: $0 + 1) - start(of: $0) }, sources: order.map { entries[$0].source })
        rotated.phase = phase + start(of: first)
        return rotated
    }

    /// The first entry that shows source frame `source`, if any.
    public func firstEntry(showing source: Int) -> Int? {
        entries.firstIndex { $0.source == source }
    }

    /// The loop rotated so that entry `posterFrame - 1` (1-based, as
    /// `--poster-frame` counts) comes first. Throws
    /// ``ThrobberError/Kind/usage`` (field ``SettingField/posterFrame``)
    /// when there is no such entry.
    public func rotated(posterFrame: Int) throws -> Timeline {
        guard (1...entries.count).contains(posterFrame) else {
            throw ThrobberError(
                .usage, field: .posterFrame,
                "must be 1…\(entries.count): the loop has \(entries.count) frame\(entries.count == 1 ? "" : "s"), got \(posterFrame)"
            )
        }
        return rotated(toStartAt: posterFrame - 1)
    }
}
