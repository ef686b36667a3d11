/// Why the panel cannot run or had to stop; one line, for stderr.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, /dev/null).
    case notATerminal(stream: String)
    /// `TERM` names a terminal that cannot address the cursor.
    case dumbTerminal
    /// A terminal call failed: what, and the system's reason.
    case system(String)
    /// `DETENT_THEME` names no theme.
    case unknownTheme(String)

    public var description: String {
        switch self {
        case .notATerminal(let stream):
            "the knob panel needs a terminal, but standard \(stream) is not one (run it in a terminal, not through a pipe or file)"
        case .dumbTerminal:
            "the knob panel needs a terminal that can move the cursor; TERM is 'dumb'"
        case .system(let detail):
            detail
        case .unknownTheme(let name):
            "DETENT_THEME '\(name)' is not a theme (choose one of \(ThemeStyle.names))"
        }
    }
}
