/// The escape sequences that switch the terminal into the panel's modes and back.
///
/// Entering: the alternate screen (the shell's screen comes back untouched on exit), no cursor,
/// no autowrap (writing the bottom-right cell must not scroll), mouse reports for presses,
/// drags and releases in SGR form (1000, 1002, 1006), bracketed paste (2004). Then two
/// questions: does the terminal
/// know synchronised output (2026) and SGR-pixel mouse reports (1016) — asked with DECRQM, so
/// a terminal that does not answer is simply taken not to — and how big is a cell in pixels.
///
/// Leaving undoes each, and also ends a synchronised update in case a frame was cut short.
public enum TerminalModes {
    public static let enter =
        "\u{1B}[?1049h"      // alternate screen, cursor saved
        + "\u{1B}[?25l"      // hide the cursor
        + "\u{1B}[?7l"       // no autowrap
        + "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"  // press/release, drags, SGR form
        + "\u{1B}[?2004h"   // bracketed paste: pasted text is marked, never taken as keys
        + "\u{1B}[H\u{1B}[2J"

    /// The questions asked after entering (their answers arrive as input).
    public static let queries =
        "\u{1B}[?2026$p"     // synchronised output?
        + "\u{1B}[?1016$p"   // SGR-pixel mouse reports?
        + "\u{1B}[16t"       // cell size in pixels

    public static let leave =
        "\u{1B}[?2026l"      // end any unfinished synchronised update
        + "\u{1B}[?2004l"
        + "\u{1B}[?1016l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"
        + "\u{1B}[0m"
        + "\u{1B}[?7h"
        + "\u{1B}[?25h"
        + "\u{1B}[?1049l"    // back to the shell's screen and cursor

    /// Switches SGR-pixel mouse reports on (after the terminal said it knows them).
    public static let pixelMouse = "\u{1B}[?1016h"

    /// The states of a DECRPM reply that mean the terminal knows the mode.
    public static func isSupported(state: Int) -> Bool {
        (1...4).contains(state)
    }
}
