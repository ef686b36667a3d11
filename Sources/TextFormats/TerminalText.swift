/// Text from outside (file names, values read from files, preset names) made safe to print
/// to a terminal.
public enum TerminalText {
    /// `text` with control characters (ESC, newlines, tabs, …) shown as `\u{…}`, and so are
    /// bidirectional-text controls (U+202A–202E, U+2066–2069, …), which would otherwise
    /// reorder the rest of the line: a hostile file name can then neither move the cursor,
    /// change the terminal's state, split one message into two lines nor make a line lie.
    ///
    /// ```swift
    /// TerminalText.printable("a\u{1B}[2Jb.wav")   // "a\u{1b}[2Jb.wav"
    /// ```
    public static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar.properties.isBidiControl {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// ``printable(_:)``, and at most `limit` characters of it (the rest as `…`): a name a
    /// peer sent, told back in one line that it cannot make as long as it likes.
    public static func printable(_ text: String, limit: Int) -> String {
        let shown = printable(text)
        return shown.count <= limit ? shown : String(shown.prefix(max(0, limit - 1))) + "…"
    }
}
