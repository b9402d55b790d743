import Glibc

extension VideoScaler {
    /// A 1-D resampling: output `o` is the sum over `t < taps` of
    /// `weights[o * stride + t]` times input `first[o] + t` (edges repeat
    /// the edge sample). Each output's weights are padded with zeros to
    /// `stride`, a multiple of 8, for 8-wide loops.
    struct Kernel: Sendable {
        let count: Int
        let taps: Int
        let stride: Int
        let first: [Int32]
        let weights: [Float]
        /// Input samples the kernel reads.
        let inputs: Int

        /// Built from each output's weights by input index (indices
        /// outside 0..<inputs fold onto the edge). Sums run in index order,
        /// never in a dictionary's (which changes from run to run), so the
        /// weights are the same bits every time.
        init(inputs: Int, _ rows: [[Int: Double]]) {
            let clamped = rows.map { row in
                var folded: [Int: Double] = [:]
                for (i, w) in Self.ordered(row) { folded[min(max(i, 0), inputs - 1), default: 0] += w }
                return folded.filter { $0.value != 0 }
            }
            let spans = clamped.map { ($0.keys.min() ?? 0, $0.keys.max() ?? 0) }
            let taps = min(inputs, max(1, spans.map { $0.1 - $0.0 + 1 }.max() ?? 1))
            let stride = (taps + 7) / 8 * 8
            var first: [Int32] = []
            var weights = [Float](repeating: 0, count: rows.count * stride)
            for (o, row) in clamped.enumerated() {
                let start = min(spans[o].0, inputs - taps)
                first.append(Int32(start))
                let total = Self.ordered(row).reduce(0) { $0 + $1.1 }
                for (i, w) in row { weights[o * stride + i - start] = Float(w / total) }
            }
            self.count = rows.count
            self.taps = taps
            self.stride = stride
            self.first = first
            self.weights = weights
            self.inputs = inputs
        }

        /// A row's weights by increasing input index.
        private static func ordered(_ row: [Int: Double]) -> [(Int, Double)] {
            row.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }

        func withBuffers<R>(_ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Float>) -> R) -> R {
            first.withUnsafeBufferPointer { f in weights.withUnsafeBufferPointer { w in body(f, w) } }
        }

        /// Each output's weights by input index.
        var rows: [[Int: Double]] {
            (0..<count).map { o in
                var row: [Int: Double] = [:]
                for t in 0..<taps where weights[o * stride + t] != 0 {
                    row[Int(first[o]) + t, default: 0] += Double(weights[o * stride + t])
                }
                return row
            }
        }

        /// This kernel applied to what `inner` makes: one kernel from
        /// `inner`'s input to this one's output.
        func after(_ inner: Kernel) -> Kernel {
            let innerRows = inner.rows
            let composed = rows.map { row in
                var sum: [Int: Double] = [:]
                for (i, w) in Self.ordered(row) {
                    for (j, v) in Self.ordered(innerRows[i]) { sum[j, default: 0] += w * v }
                }
                return sum
            }
            return Kernel(inputs: inner.inputs, composed)
        }

        /// Lanczos-3 from `n` samples to `m`, pixel centers aligned; widened
        /// by the ratio when shrinking.
        static func lanczos(from n: Int, to m: Int) -> Kernel {
            let scale = Double(n) / Double(m)
            let widen = max(scale, 1)
            let support = 3 * widen
            return Kernel(
                inputs: n,
                (0..<m).map { o in
                    let center = (Double(o) + 0.5) * scale - 0.5
                    var row: [Int: Double] = [:]
                    for i in Int((center - support).rounded(.up))...Int((center + support).rounded(.down)) {
                        row[i] = sinc3((Double(i) - center) / widen)
                    }
                    return row
                })
        }

        /// Chroma brought from `n` samples to the `m` samples of the luma
        /// grid (2^`shift` times as many, rounded up), sample `j` sitting
        /// at luma position 2^`shift`·j + `offset`: swscale's bicubic
        /// (B = 0, C = 0.6) as swscale places it, five samples from
        /// p − 1.5 rounded toward zero. Near the first sample, where p − 1.5
        /// is negative, that window starts one sample late and leaves out
        /// a far tap of the negative lobe.
        static func bicubicUp(from n: Int, to m: Int, shift: Int, offset: Double) -> Kernel {
            let factor = Double(1 << shift)
            return Kernel(
                inputs: n,
                (0..<m).map { i in
                    let p = (Double(i) - offset) / factor
                    let first = Int((p - 1.5).rounded(.towardZero))
                    var row: [Int: Double] = [:]
                    for j in first...first + 4 { row[j, default: 0] += cubic(p - Double(j)) }
                    return row
                })
        }

        private static func sinc3(_ x: Double) -> Double {
            let a = abs(x)
            if a < 1e-9 { return 1 }
            if a >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }

        private static func cubic(_ x: Double) -> Double {
            let c = 0.6
            let a = abs(x)
            if a < 1 { return (2 - c) * a * a * a + (c - 3) * a * a + 1 }
            if a < 2 { return -c * a * a * a + 5 * c * a * a - 8 * c * a + 4 * c }
            return 0
        }
    }
}
