import Foundation
import TestSupport
import Testing

/// `check` makes each entry from the entry's arguments, parsed with the
/// command's own declarations, with relative paths — in "args" too —
/// resolved against the manifest's folder, whatever the working folder.
@Suite("check: entries resolve paths against the manifest's folder")
struct CheckBaseFolderTests {
    @Test(
        "an entry's relative --ring, --icon and encode inputs resolve against the manifest, from any working folder, to the bytes the command makes"
    )
    func relativeArguments() throws {
        try withTemporaryDirectory { (dir: URL) throws in
            let pins = dir.appendingPathComponent("pins")
            let assets = pins.appendingPathComponent("assets")
            try Pillow.makeFrames(Pillow.distinctFrames(["ring.png", "icon.png"], width: 24, height: 24), in: assets)
            let elsewhere = dir.appendingPathComponent("elsewhere")
            for folder in [pins, elsewhere] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let manifest: [String: Any] = [
                "entries": [
                    [
                        "preset": "ease",
                        "args": ["--ring", "assets/ring.png", "--icon=assets/icon.png", "--size", "24"],
                        "output": "ease.gif",
                    ],
                    ["encode": ["assets"], "args": ["--fps", "5", "--sort", "name"], "output": "frames.png"],
                ]
            ]
            try JSONSerialization.data(withJSONObject: manifest).write(to: pins.appendingPathComponent("m.json"))

            let update = try Throbber.run(["check", "../pins/m.json", "--update"], in: elsewhere)
            #expect(update.status == 0, "\(update.stdoutText)\(update.stderrText)")
            let check = try Throbber.run(["check", "../pins/m.json"], in: elsewhere)
            #expect(
                check.status == 0 && check.stdoutText.hasSuffix("2 passed, 0 failed\n"),
                "\(check.stdoutText)\(check.stderrText)")

            // The same commands, typed in the assets' folder, make the pinned bytes.
            let direct = [
                [
                    "preset", "ease", "--ring", "ring.png", "--icon", "icon.png", "--size", "24", "-o",
                    elsewhere.appendingPathComponent("ease.gif").path,
                ],
                [
                    "encode", ".", "--fps", "5", "--sort", "name", "-o",
                    elsewhere.appendingPathComponent("frames.png").path,
                ],
            ]
            for args in direct {
                let r = try Throbber.run(args, in: assets)
                #expect(r.status == 0, "\(args): \(r.stderrText)")
            }
            let recorded =
                try JSONSerialization.jsonObject(with: Data(contentsOf: pins.appendingPathComponent("m.json")))
                as? [String: Any]
            let hashes = (recorded?["entries"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String }
            let made = try sha256sum([
                elsewhere.appendingPathComponent("ease.gif"), elsewhere.appendingPathComponent("frames.png"),
            ])
            #expect(hashes == made, "pinned \(hashes), the commands made \(made)")
        }
    }
}
