/// Draws a toggle as a switch rather than a knob: an on/off parameter has no values between,
/// so it gets no arc to suggest a continuum. The thumb sits left when off and right when on,
/// with the track behind it filled in the knob's progress colour.
///
/// ```
/// ╭────────╮      ╭────────╮
/// │██      │ off  │━━━━━━██│ on          compact: (●───) off  (━━━●) on
/// ╰────────╯      ╰────────╯
/// ```
public enum SwitchPainter {
    /// The switch's box in the full layout.
    public static let columns = 10, rows = 3

    /// The full layout's switch, centred in `frame` (a knob's art box).
    public static func draw(on: Bool, progressRole: CellRole, ascii: Bool, into screen: inout ScreenBuffer,
                            frame: PanelLayout.Frame) {
        let x = frame.x + (frame.width - columns) / 2
        let y = frame.y + max((frame.height - rows) / 2, 0)
        let inner = columns - 2
        let (corners, across, side, thumb, fill): ([String], String, String, String, String) = ascii
            ? (["+", "+", "+", "+"], "-", "|", "##", "=")
            : (["╭", "╮", "╰", "╯"], "─", "│", "██", "━")
        let edge = String(repeating: across, count: inner)
        screen.put(corners[0] + edge + corners[1], x: x, y: y, role: .track)
        screen.put(corners[2] + edge + corners[3], x: x, y: y + 2, role: .track)
        screen.put(side, x: x, y: y + 1, role: .track)
        screen.put(side, x: x + columns - 1, y: y + 1, role: .track)
        let thumbWidth = DisplayWidth.of(thumb)
        if on {
            screen.put(String(repeating: fill, count: inner - thumbWidth), x: x + 1, y: y + 1, role: progressRole)
            screen.put(thumb, x: x + 1 + inner - thumbWidth, y: y + 1, role: .indicator)
        } else {
            screen.put(thumb, x: x + 1, y: y + 1, role: .indicator)
        }
    }

    /// The compact layout's switch on one line: `(●───)` or `(━━━●)`.
    public static let lineColumns = 6

    /// Draws the one-line switch at (`x`, `y`); returns the column after it.
    @discardableResult
    public static func drawLine(on: Bool, progressRole: CellRole, ascii: Bool, into screen: inout ScreenBuffer,
                                x: Int, y: Int) -> Int {
        let (thumb, track, fill): (String, String, String) = ascii ? ("o", "-", "=") : ("●", "─", "━")
        let inner = lineColumns - 3
        var column = screen.put("(", x: x, y: y, role: .track)
        if on {
            column = screen.put(String(repeating: fill, count: inner), x: column, y: y, role: progressRole)
            column = screen.put(thumb, x: column, y: y, role: .indicator)
        } else {
            column = screen.put(thumb, x: column, y: y, role: .indicator)
            column = screen.put(String(repeating: track, count: inner), x: column, y: y, role: .track)
        }
        return screen.put(")", x: column, y: y, role: .track)
    }
}
