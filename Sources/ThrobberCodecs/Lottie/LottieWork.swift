import FoundationEssentials
import ThrobberCore

/// What rlottie builds to draw a Lottie file, counted from its JSON before
/// rlottie reads it: rlottie makes an object for every layer and shape item
/// once per copy, when it reads the file. A repeater copies the items
/// before it in its group, and a precomposition layer builds its
/// composition's layers anew for each layer that shows it, so both multiply
/// through nesting: three nested repeaters of 1000 copies are 10⁹ objects
/// (over 8 GB), though each repeater alone is within ``LottieLimits``.
///
/// Embedded images (`data:` URIs) are decoded by rlottie to RGBA when it
/// reads the file; their sizes come from their headers here, so an image
/// bomb is refused before anything is decoded.
struct LottieWork {
    /// Layers and shape items rlottie builds and draws for one frame.
    var items = 0
    /// Bytes rlottie holds for the embedded images: each decoded to RGBA
    /// and converted to premultiplied ARGB, two copies at once (a 4000×4000
    /// image took 122 MB).
    var imageBytes = 0

    /// Bytes one rlottie object holds for a file of `jsonBytes` bytes: about
    /// 290 bytes an item (measured with nested repeaters of up to 4·10⁶
    /// items through librlottie 0.1: 119 MB at 3.6·10⁵ items, 1146 MB at
    /// 4·10⁶), the decoded images (``imageBytes``), and the parsed JSON.
    func modelBytes(jsonBytes: Int) -> Int {
        [FrameSize.product(items, LottieLimits.bytesPerItem), imageBytes, FrameSize.product(jsonBytes, 4)].reduce(0) {
            $0.addingReportingOverflow($1).overflow ? .max : $0 + $1
        }
    }

    /// Counts the work of `top`, a Lottie document read from `path`.
    /// Throws ``ThrobberError/Kind/data`` naming `path` and the JSON path
    /// where the count passes ``LottieLimits/maxItems``, a precomposition
    /// that shows itself, or an image whose size is out of range.
    static func count(_ top: JSONNode, path: String) throws -> LottieWork {
        var counter = Counter(path: path, top: top)
        var work = LottieWork()
        work.items = try counter.layers(of: top, at: "")
        work.imageBytes = counter.imageBytes
        return work
    }

    /// The walk: compositions counted once each (by asset id), the assets
    /// being counted kept to catch a precomposition that contains itself.
    private struct Counter {
        let path: String
        /// Precomposition assets by id, with their JSON path.
        var compositions: [String: (node: JSONNode, at: String)] = [:]
        var counted: [String: Int] = [:]
        var open: Set<String> = []
        var imageBytes = 0
        /// The canvas's height in pixels (`h`, checked by ``LottieFile``).
        var canvasHeight = 1

        init(path: String, top: JSONNode) {
            self.path = path
            if case .number(let text)? = top.member("h"), let h = Double(text), h >= 1,
                h <= Double(ImageDecoder.maxSide)
            {
                canvasHeight = Int(h)
            }
            guard case .array(let assets)? = top.member("assets") else { return }
            for (i, asset) in assets.enumerated() {
                guard case .string(let id)? = asset.member("id"), asset.member("layers") != nil else { continue }
                compositions[id] = (asset, "assets[\(i)]")
            }
        }

        /// The items of a composition (the document, or an asset): each
        /// layer, its shapes, and the compositions it shows.
        mutating func layers(of composition: JSONNode, at: String) throws -> Int {
            guard case .array(let layers)? = composition.member("layers") else { return 0 }
            let base = at.isEmpty ? "layers" : "\(at).layers"
            var total = 0
            for (i, layer) in layers.enumerated() {
                let layerAt = "\(base)[\(i)]"
                var one = layerWeight(layer)
                // A mask is a path, drawn into a clip of its own bounds
                // (4,000 masks on a 2000-row layer: 2 ms a frame).
                if case .array(let masks)? = layer.member("masksProperties") {
                    one = try add(one, masks.count, at: "\(layerAt).masksProperties")
                }
                if case .array(let shapes)? = layer.member("shapes") {
                    one = try add(one, try items(shapes, at: "\(layerAt).shapes"), at: layerAt)
                }
                if case .string(let ref)? = layer.member("refId"), let comp = compositions[ref] {
                    one = try add(one, try precomposition(ref, comp), at: layerAt)
                }
                total = try add(total, one, at: base)
            }
            return total
        }

        /// What a layer itself costs, in items: rlottie keeps and updates a
        /// clip of the layer's height (a precomposition layer's `h`, else the
        /// canvas's) every frame, about 16–20 bytes a row (measured: 6,859
        /// layers 2000 rows high held 240 MB and drew in 0.38 s a frame;
        /// 5,000 layers 100 rows high, 10 MB), so one item per 16 rows.
        private func layerWeight(_ layer: JSONNode) -> Int {
            var rows = canvasHeight
            if case .number(let text)? = layer.member("h"), let h = Double(text), h >= 1 {
                rows = h < Double(ImageDecoder.maxSide) ? Int(h) : ImageDecoder.maxSide
            }
            return 1 + rows / 16
        }

        /// A precomposition's items, counted once however often it is shown.
        private mutating func precomposition(_ id: String, _ comp: (node: JSONNode, at: String)) throws -> Int {
            if let known = counted[id] { return known }
            guard !open.contains(id) else {
                throw ThrobberError(
                    .data, "\(path): \(comp.at): the precomposition \"\(id)\" shows itself, so it never ends")
            }
            open.insert(id)
            let n = try layers(of: comp.node, at: comp.at)
            open.remove(id)
            counted[id] = n
            return n
        }

        /// The items of a shape list: a group counts its own items, a
        /// repeater multiplies every item before it by its copies.
        private mutating func items(_ shapes: [JSONNode], at: String) throws -> Int {
            var total = 0
            for (i, shape) in shapes.enumerated() {
                let itemAt = "\(at)[\(i)]"
                var one = 1
                if case .array(let children)? = shape.member("it") {
                    one = try add(one, try items(children, at: "\(itemAt).it"), at: itemAt)
                }
                if shape.member("ty") == .string("rp") {
                    let copies = Self.copies(shape.member("c"))
                    let (n, overflow) = total.multipliedReportingOverflow(by: max(1, copies))
                    total = try add(overflow ? .max : n, 0, at: itemAt)
                }
                total = try add(total, one, at: itemAt)
            }
            return total
        }

        /// The most copies a repeater's `c` asks for (a number, or the
        /// largest value of an animated one); rounded up, at least 1.
        private static func copies(_ value: JSON?) -> Int {
            var most = 1.0
            var stack = value.map { [$0] } ?? []
            while let v = stack.popLast() {
                switch v {
                case .object(let m): stack += m.filter { $0.key != "t" }.map(\.value.value)
                case .array(let a): stack += a.map(\.value)
                case .number(let text): if let d = Double(text), d > most { most = d }
                default: break
                }
            }
            return most < Double(Int.max / 2) ? Int(most.rounded(.up)) : Int.max / 2
        }

        /// `a + b`, refused at `at` when over ``LottieLimits/maxItems``.
        private func add(_ a: Int, _ b: Int, at: String) throws -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            guard !overflow, sum <= LottieLimits.maxItems else {
                let count = overflow || sum > 1 << 60 ? "more than 10^18" : "\(sum)"
                throw ThrobberError(
                    .data,
                    "\(path): \(at): repeaters and precompositions multiply to \(count) layers and shapes a frame, more than Throbber draws (at most \(LottieLimits.maxItems))"
                )
            }
            return sum
        }
    }
}

extension JSONNode {
    /// The value of an object's member `key`; nil for a missing key or a
    /// node that is not an object.
    func member(_ key: String) -> JSON? {
        guard case .object(let members) = value else { return nil }
        return members.first(where: { $0.key == key })?.value.value
    }
}
