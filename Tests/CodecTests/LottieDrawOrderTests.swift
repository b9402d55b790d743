import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing
import ThrobberKit

/// rlottie objects are made per frame while their parsed models are kept
/// between frames (`RLottieRender`): a frame must not depend on the frames
/// drawn before it, on their order, or on how many threads drew at once.
@Suite("Lottie frames: independent of drawing order and threads")
struct LottieDrawOrderTests {
    /// A 48×48 animation of 12 frames: a 4×4 embedded PNG (one pixel half
    /// transparent) scaled ×8 and turning, over a square shape layer.
    static let imageAnimation = """
        {"v":"5.5.2","fr":12,"ip":0,"op":12,"w":48,"h":48,"ddd":0,
         "assets":[{"id":"img","w":4,"h":4,"u":"","e":1,"p":"data:image/png;base64,\
        iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAH0lEQVR4nGM8oaHxnwEJMDEwMDD4LDBqhAkwYlWBDAATXgXU4fBl\
        cwAAAABJRU5ErkJggg=="}],
         "layers":[
          {"ddd":0,"ind":1,"ty":2,"refId":"img","sr":1,"ao":0,"ip":0,"op":12,"st":0,"bm":0,
           "ks":{"o":{"a":0,"k":100},
                 "r":{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},
                 {"t":12,"s":[90]}]},"p":{"a":0,"k":[24,24,0]},"a":{"a":0,"k":[2,2,0]},"s":{"a":0,"k":[800,800,100]}}},
          {"ddd":0,"ind":2,"ty":4,"sr":1,"ao":0,"ip":0,"op":12,"st":0,"bm":0,
           "ks":{"o":{"a":0,"k":100},
                 "r":{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},
                 {"t":12,"s":[-180]}]},"p":{"a":0,"k":[24,24,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},
           "shapes":[{"ty":"rc","d":1,"s":{"a":0,"k":[40,40]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},
                     {"ty":"fl","c":{"a":0,"k":[0.1,0.3,0.9,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """

    /// Every frame of `file`, drawn one after another in `order`.
    static func frames(_ file: LottieFile, _ order: [Int], width: Int, height: Int) throws -> [Int: [UInt32]] {
        var drawn: [Int: [UInt32]] = [:]
        for f in order { drawn[f] = try file.premultipliedARGB(frame: f, width: width, height: height) }
        return drawn
    }

    /// simple_loader from the fixtures, and the image animation above.
    static func files(in dir: URL) throws -> [LottieFile] {
        let image = dir.appendingPathComponent("image.json")
        try Data(imageAnimation.utf8).write(to: image)
        return [
            try LottieFile.read(Fixtures.root.appendingPathComponent("lottie-android/simple_loader.json").path),
            try LottieFile.read(image.path),
        ]
    }

    @Test("frame 7 after frame 2, and every frame drawn last to first, equal each frame drawn first", Fixtures.needed)
    func order() throws {
        try withTemporaryDirectory { dir in
            for file in try Self.files(in: dir) {
                let (w, h) = (file.width, file.height)
                let first = try file.premultipliedARGB(frame: 7, width: w, height: h)
                #expect(first.contains { $0 >> 24 > 0 }, "\(file.name): frame 7 is empty, so the check says nothing")
                _ = try file.premultipliedARGB(frame: 2, width: w, height: h)
                #expect(try file.premultipliedARGB(frame: 7, width: w, height: h) == first, "\(file.name)")
                let all = Array(0..<file.frameCount)
                let forward = try Self.frames(file, all, width: w, height: h)
                let backward = try Self.frames(file, all.reversed(), width: w, height: h)
                #expect(Set(forward.values).count > 1, "\(file.name): every frame alike, so the check says nothing")
                for f in all { #expect(forward[f] == backward[f], "\(file.name) frame \(f)") }
            }
        }
    }

    @Test("four threads drawing every frame in four orders at once draw what one thread draws", Fixtures.needed)
    func threads() throws {
        try withTemporaryDirectory { dir in
            for file in try Self.files(in: dir) {
                let (w, h) = (file.width, file.height)
                let all = Array(0..<file.frameCount)
                let alone = try Self.frames(file, all, width: w, height: h)
                let odd = all.filter { $0 % 2 == 1 } + all.filter { $0 % 2 == 0 }
                let orders = [all, all.reversed(), odd, all.shuffled()]
                let results = Mutex<[[Int: [UInt32]]]>([])
                DispatchQueue.concurrentPerform(iterations: orders.count * 3) { i in
                    let drawn = (try? Self.frames(file, orders[i % orders.count], width: w, height: h)) ?? [:]
                    results.withLock { $0.append(drawn) }
                }
                for drawn in results.withLock({ $0 }) {
                    for f in all { #expect(drawn[f] == alone[f], "\(file.name) frame \(f)") }
                }
            }
        }
    }
}
