import Testing

@testable import ThrobberKit

/// The "did you mean" helper: edit distances counted by hand, the length
/// rule, and the hint's wording.
@Suite("Suggestion: did you mean")
struct SuggestionTests {
    @Test(
        "distance: one per insertion, deletion, substitution or swap of neighbours, case ignored",
        arguments: [
            ("widht", "width", 1),  // swap
            ("colour", "color", 1),  // deletion
            ("colour", "colors", 2),  // u→r, r→s
            ("whte", "white", 1),  // insertion
            ("encdoe", "encode", 1),  // swap
            ("spinnr", "spinner", 1),
            ("centre", "center", 1),  // swap of "re"
            ("kitten", "sitting", 3),
            ("ca", "abc", 3),  // optimal string alignment: no edit of a swapped pair
            ("", "abc", 3), ("abc", "", 3), ("", "", 0),
            ("WHITE", "white", 0),
            ("natural", "name", 5),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestion.distance(a, b) == expected, "\(a) → \(b)")
        #expect(Suggestion.distance(b, a) == expected, "\(b) → \(a)")
    }

    @Test("the distance allowed grows with the word: 1 up to 4 characters, 2 up to 7, then 3")
    func limit() {
        #expect((1...12).map { Suggestion.limit(forLength: $0) } == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3])
    }

    @Test("nearest: every candidate at the smallest distance, none when too far or when the word is known")
    func nearest() {
        let options = ["width", "height", "color", "colors", "crop"]
        #expect(Suggestion.nearest(to: "widht", among: options) == ["width"])
        #expect(Suggestion.nearest(to: "colour", among: options) == ["color"])
        #expect(Suggestion.nearest(to: "colour", among: ["colors", "crop"]) == ["colors"])
        #expect(Suggestion.nearest(to: "bsh", among: ["bash", "zsh", "fish"]) == ["bash", "zsh"])
        #expect(Suggestion.nearest(to: "width", among: options) == [])
        #expect(Suggestion.nearest(to: "Width", among: options) == ["width"])
        #expect(Suggestion.nearest(to: "frobnicate", among: options) == [])
        // "tan" is 2 from "teal", but a 3-letter word allows 1.
        #expect(Suggestion.nearest(to: "tan", among: ["red", "teal", "navy"]) == [])
        // A 1-letter word is never wholly replaced.
        #expect(Suggestion.nearest(to: "x", among: ["o", "h"]) == [])
    }

    @Test("the hint: quoted, prefixed, ties joined with 'or', empty when nothing is near")
    func hint() {
        #expect(Suggestion.didYouMean("widht", among: ["width"], prefix: "--") == "; did you mean '--width'?")
        #expect(Suggestion.didYouMean("perod", among: ["kind", "period"], quote: "\"") == "; did you mean \"period\"?")
        #expect(Suggestion.didYouMean("bsh", among: ["bash", "zsh", "fish"]) == "; did you mean 'bash' or 'zsh'?")
        #expect(Suggestion.didYouMean("ab", among: ["abc", "abd", "abe"]) == "; did you mean 'abc', 'abd' or 'abe'?")
        #expect(Suggestion.didYouMean("zzz", among: ["width"]) == "")
    }
}
