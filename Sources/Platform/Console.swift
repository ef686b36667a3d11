import TextFormats

/// How every command talks to the user outside its regular output: problems and warnings as
/// one `detent: …` line on stderr, each written whole (see ``LineWriter``), so nothing is lost
/// or reordered when the process exits on a signal.
package enum Console {
    /// One line on stderr, prefixed with the program name: how every command reports a
    /// problem. File names and values in it come from outside, so control characters are
    /// shown escaped (``TerminalText/printable(_:)``): the line stays one line.
    package static func error(_ line: String) { LineWriter.standardError.line("detent: " + TerminalText.printable(line)) }

    /// One warning line on stderr (`detent: warning: …`).
    package static func warning(_ line: String) { error("warning: " + line) }

    /// One line on stdout.
    package static func out(_ line: String) { LineWriter.standardOutput.line(line) }

    /// Text on stderr as it is.
    package static func raw(_ text: String) { LineWriter.standardError.write(text) }

    package static var stderrIsTerminal: Bool { LineWriter.standardError.isTerminal }
}
