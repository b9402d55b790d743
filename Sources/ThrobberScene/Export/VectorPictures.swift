import ThrobberCodecs
import ThrobberCore
import ThrobberEncode

/// The pictures of a vector file, each embedded once: a picture that
/// several layers or repeat copies show (the same file, or the same
/// pixels under another name) is one PNG data URI that every use refers
/// to.
struct VectorPictures {
    /// One picture file's data URI, and the number of its pixels among
    /// the different ones (the same pixels under two names share it).
    struct Embedded {
        var uri: String
        var number: Int
    }

    /// The pictures by file, so that each file is encoded once and each
    /// use looks up its path, not its data.
    private var files: [String: Embedded] = [:]
    /// The number of each different data URI.
    private var numbers: [String: Int] = [:]
    /// Bytes of the different data URIs.
    private var embedded = 0
    /// The name each picture embedded so far has in the file, by the
    /// writer's key for it (its number, or ``key(_:_:)``).
    var names: [String: String] = [:]

    /// The PNG data URI of `picture` and its number, shown by the layer at
    /// `path` of the config `file` (named in the error when the PNG is
    /// over ``VectorFormat/maxEmbeddedBytes``).
    mutating func embed(_ picture: SceneImage, file: String, path: String) throws -> Embedded {
        if let known = files[picture.path] { return known }
        let uri = try VectorText.pngDataURI(picture, file: file, path: path)
        let number = numbers[uri] ?? numbers.count
        if numbers[uri] == nil {
            numbers[uri] = number
            embedded += uri.utf8.count
        }
        files[picture.path] = Embedded(uri: uri, number: number)
        return files[picture.path]!
    }

    /// How many times each picture is shown among `nodes`, by
    /// ``key(_:_:)``; `meter` counts the pictures, each written at least
    /// once.
    mutating func uses(in nodes: [VectorScene.Node], file: String, meter: VectorMeter) throws -> [String: Int] {
        var count: [String: Int] = [:]
        func visit(_ nodes: [VectorScene.Node]) throws {
            for node in nodes {
                switch node.content {
                case .image(let picture):
                    count[Self.key(try embed(picture, file: file, path: node.path), picture), default: 0] += 1
                    try meter.written(embedded, at: node.path)
                case .group(let children): try visit(children)
                default: break
                }
            }
        }
        try visit(nodes)
        return count
    }

    /// A picture's pixels and its size in points (a picture also named
    /// `@2x` is another size), as one key.
    static func key(_ embedded: Embedded, _ picture: SceneImage) -> String {
        "\(embedded.number) \(picture.image.width)x\(picture.image.height)/\(picture.pixelScale)"
    }
}
