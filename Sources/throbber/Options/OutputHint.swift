import Glibc
import ThrobberKit

/// What a command line without `-o` most likely meant: an output file
/// named as the last argument (`throbber encode in.mp4 out.gif`).
enum OutputHint {
    /// "; did you mean `-o out.gif`? (throbber encode in.mp4 -o out.gif)"
    /// when `-o` was not given, there is more than one argument, and the
    /// last names a file `command` writes (`vector`: also SVG, Lottie and
    /// dotLottie) by its extension and no file that exists (an existing
    /// one is more likely an input, which `-o` would replace); "" otherwise.
    static func suggestion(_ args: Arguments, command: String, vector: Bool) -> String {
        guard args.string("output") == nil, args.positional.count >= 2, let last = args.positional.last,
            access(last, F_OK) != 0
        else { return "" }
        let ext = PathText.pathExtension(last)
        guard AnimationFormat(fileExtension: ext) != nil || (vector && VectorFormat(fileExtension: ext) != nil)
        else { return "" }
        let inputs = args.positional.dropLast().map(shellWord).joined(separator: " ")
        return "; did you mean `-o \(shellWord(last))`? (throbber \(command) \(inputs) -o \(shellWord(last)))"
    }

    /// `word` as a shell reads it back: as it is when it is made of safe
    /// characters, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic && $0.isASCII) || "0123456789-_./,+=:@%".unicodeScalars.contains($0)
        }
        guard safe, !word.isEmpty else { return "'" + word.replacing("'", with: "'\\''") + "'" }
        return word
    }
}
