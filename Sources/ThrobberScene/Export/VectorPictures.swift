import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// The pictures of a vector file, each embedded once: a picture that
/// several layers or repeat copies show (the same file, or the same
/// pixels under another name) is one PNG data URI that every use refers
/// to.
struct VectorPictures {
    /// Data URIs by picture file, so that each file is encoded once.
    private var uris: [String: String] = [:]
    /// Bytes of the data URIs made, each different one once.
    private var embedded = 0
    private var seen: Set<String> = []
    /// The name each picture embedded so far has in the file, by the
    /// writer's key for it (the data URI, or ``key(_:_:)``).
    var names: [String: String] = [:]

    /// The PNG data URI of `picture`, shown by the layer at `path` of the
    /// config `file` (named in the error when the PNG is over
    /// ``VectorFormat/maxEmbeddedBytes``).
    mutating func uri(_ picture: SceneImage, file: String, path: String) throws -> String {
        if let known = uris[picture.path] { return known }
        let uri = try VectorText.pngDataURI(picture, file: file, path: path)
        uris[picture.path] = uri
        if seen.insert(uri).inserted { embedded += uri.utf8.count }
        return uri
    }

    /// How many times each picture is shown among `nodes`, by its data URI
    /// and its size in points (a picture also named `@2x` is another size);
    /// `meter` counts the pictures, each written at least once.
    mutating func uses(in nodes: [VectorScene.Node], file: String, meter: VectorMeter) throws -> [String: Int] {
        var count: [String: Int] = [:]
        func visit(_ nodes: [VectorScene.Node]) throws {
            for node in nodes {
                switch node.content {
                case .image(let picture):
                    count[Self.key(try uri(picture, file: file, path: node.path), picture), default: 0] += 1
                    try meter.written(embedded, at: node.path)
                case .group(let children): try visit(children)
                default: break
                }
            }
        }
        try visit(nodes)
        return count
    }

    /// A picture's data URI and its size in points, as one key.
    static func key(_ uri: String, _ picture: SceneImage) -> String {
        "\(picture.image.width)x\(picture.image.height)/\(picture.pixelScale) \(uri)"
    }
}
