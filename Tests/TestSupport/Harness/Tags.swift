import Testing

extension Tag {
    /// A suite that takes long (many encodes, peer tools, browsers, large
    /// clips): `make test` runs it, `make test-fast` (`--skip tag:slow`)
    /// leaves it out. Tag a suite with it when it takes more than a few
    /// seconds of the fast loop's two minutes.
    @Tag package static var slow: Self
}
