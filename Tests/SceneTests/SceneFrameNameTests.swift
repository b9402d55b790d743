import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// The names a scene's frames have in messages: 1-based numbers, as
/// `--frames` and `--poster-frame` count, with the time each is drawn at.
@Suite("scene frame names")
struct SceneFrameNameTests {
    @Test("a 10 fps, 1 s scene: the first frame is \"frame 1 (t = 0 s)\", the last \"frame 10 (t = 0.9 s)\"")
    func names() throws {
        let config = try SceneTestKit.config(
            SceneTestKit.scene(
                timing: #"{"fps": 10, "duration": 1}"#,
                layers:
                    #"{"circle": {"radius": 5}, "animate": [{"kind": "keyframes", "property": "scale", "period": 1, "keys": [{"at": 0, "value": 1}]}]}"#
            ))
        let job = try SceneJob(config: config, jobs: 1)
        #expect(job.source.count == 10)
        #expect(job.source.name(at: 0) == "frame 1 (t = 0 s)")
        #expect(job.source.name(at: 9) == "frame 10 (t = 0.9 s)")
    }
}
