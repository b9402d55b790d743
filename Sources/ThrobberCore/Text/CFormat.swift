import Glibc

/// Numbers as C's `printf` writes them (`"%.2f"`, `"%g"`, `"%04x"`), in the
/// C locale, so always with a "." decimal point. The executable links
/// FoundationEssentials only, which has no `String(format:)`; dropping
/// Foundation halves the time every run takes to start (docs/tuning.md,
/// "Start-up").
package func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    // A va_list is spent once read: a second pass, when the first buffer
    // was short, takes a fresh one.
    func attempt(_ capacity: Int) -> (text: String, needed: Int) {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: capacity)
            let needed = Int(vsnprintf(&buffer, capacity, format, list))
            let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return (text, needed)
        }
    }
    let first = attempt(64)
    return first.needed < 64 ? first.text : attempt(first.needed + 1).text
}
