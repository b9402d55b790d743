import ThrobberCodecs
import ThrobberCore

/// Where two animations first differ, by their composited frames: what a
/// viewer sees, not the bytes.
public struct AnimationDiff: Sendable {
    /// Index (0-based) of the first frame that differs in pixels or
    /// duration (for a frame count that differs: the first frame one of
    /// them lacks).
    public var frame: Int
    /// The same frame's number as people read and type it (1-based, as
    /// `--frames` counts).
    public var number: Int { frame + 1 }
    /// How many pixels of that frame differ in any channel; 0 when only a
    /// duration, the frame count or the loop count differs.
    public var differingPixels: Int
    /// The largest difference of one channel (R, G, B or A) in that frame,
    /// 0…255.
    public var largestChannelDifference: Int
    /// The smallest rectangle holding every differing pixel of that frame;
    /// nil when no pixel differs or the sizes differ.
    public var region: PixelRect?
    /// The two frames and a difference image (bright where they differ).
    public var expected: RGBAImage, actual: RGBAImage, difference: RGBAImage
    /// Set when the animations have different sizes or frame counts.
    public var note: String?

    /// Nil when every frame, delay and the loop count agree.
    public static func compare(expected: DecodedAnimation, actual: DecodedAnimation) -> AnimationDiff? {
        if expected.width != actual.width || expected.height != actual.height {
            let e = expected.frames[0]
            let a = actual.frames[0]
            return AnimationDiff(
                frame: 0, differingPixels: expected.width * expected.height, largestChannelDifference: 255,
                expected: e, actual: a, difference: e,
                note: "size \(expected.width)x\(expected.height) became \(actual.width)x\(actual.height)")
        }
        for i in 0..<min(expected.frames.count, actual.frames.count) {
            let e = expected.frames[i]
            let a = actual.frames[i]
            if e.pixels == a.pixels && expected.durations[i] == actual.durations[i] { continue }
            var count = 0
            var largest = 0
            var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
            var diff = [UInt8](repeating: 0, count: e.pixels.count)
            for p in stride(from: 0, to: e.pixels.count, by: 4) {
                var d = 0
                for c in 0..<4 { d = max(d, abs(Int(e.pixels[p + c]) - Int(a.pixels[p + c]))) }
                if d > 0 {
                    count += 1
                    let x = (p / 4) % e.width
                    let y = (p / 4) / e.width
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
                largest = max(largest, d)
                let v = UInt8(min(255, d * 4))
                diff[p] = v
                diff[p + 1] = v
                diff[p + 2] = v
                diff[p + 3] = 255
            }
            let note =
                expected.durations[i] != actual.durations[i]
                ? "frame \(i + 1) is shown \(actual.durations[i]) s instead of \(expected.durations[i]) s" : nil
            let region =
                count > 0 ? PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1) : nil
            return AnimationDiff(
                frame: i, differingPixels: count, largestChannelDifference: largest, region: region, expected: e,
                actual: a,
                difference: RGBAImage(width: e.width, height: e.height, pixels: diff), note: note)
        }
        if expected.frames.count != actual.frames.count {
            let i = min(expected.frames.count, actual.frames.count)
            let e = expected.frames[min(i, expected.frames.count - 1)]
            let a = actual.frames[min(i, actual.frames.count - 1)]
            return AnimationDiff(
                frame: i, differingPixels: 0, largestChannelDifference: 0, expected: e, actual: a, difference: e,
                note: "\(expected.frames.count) frames became \(actual.frames.count)")
        }
        if expected.loop != actual.loop {
            return AnimationDiff(
                frame: 0, differingPixels: 0, largestChannelDifference: 0, expected: expected.frames[0],
                actual: actual.frames[0], difference: expected.frames[0],
                note: "loop count \(expected.loop) became \(actual.loop)")
        }
        return nil
    }
}
