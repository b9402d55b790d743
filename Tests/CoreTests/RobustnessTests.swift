import Foundation
import TestSupport
import Testing

@testable import ThrobberKit

/// User-typed values that must be refused politely, never crash the
/// process. Each case runs in a child process (an exit test), so a crash is
/// a failure of this test instead of the end of the whole test run.
@Suite("Robustness: odd values do not crash")
struct RobustnessTests {
    @Test("a color with full-width hex digits (#ａｂｃ) is refused, not a crash")
    func fullWidthHexDigits() async {
        await #expect(processExitsWith: .success) {
            // Character.isHexDigit accepts U+FF41 'ａ', which UInt8(_:radix:) does not.
            let parsed = Color(parsing: "#ａｂｃ")
            exit(parsed == nil ? 0 : 2)
        }
    }

    @Test("an fps whose centisecond times overflow 64 bits is refused by validate(), and timing never traps")
    func hugeFrameDuration() async {
        await #expect(processExitsWith: .success) {
            // 1/fps = 10^17 s per frame: 100·t overflows Int64 while rounding.
            var settings = EncodeSettings()
            settings.timing.fps = Rational(1, 100_000_000_000_000_000)
            do {
                try settings.validate(for: .gif)
            } catch let error as ThrobberError {
                exit(error.kind == .usage ? 0 : 4)
            } catch {
                exit(5)
            }
            // Accepted: then the GIF encoder would compute these delays.
            _ = Timeline(sourceCount: 2, settings: settings.timing).delaysCentiseconds
            exit(3)
        }
    }
}
