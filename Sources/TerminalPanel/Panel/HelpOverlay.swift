/// The help `?` opens: every key and mouse action, in a box over the panel.
public enum HelpOverlay {
    /// Key (left column) and what it does (right column).
    public static func lines(ascii: Bool) -> [(String, String)] {
        let (up, down, left, right) = ascii ? ("Up", "Down", "Left", "Right") : ("↑", "↓", "←", "→")
        return [
            ("Tab Shift-Tab \(left) \(right)", "move focus"),
            (ascii ? "1 ... 9" : "1 … 9", "focus that knob on the page"),
            ("\(up) \(down)  k j  + -", "turn (Ctrl or Alt: fine)"),
            ("PgUp PgDn", "turn 10 steps"),
            ("Home End", "minimum, maximum"),
            ("= or Enter", "type a value: 1.2k, 800 Hz, -6 dB"),
            ("Enter space", "flip a switch (on/off)"),
            ("[  ]", "previous, next page of knobs"),
            ("/  {  }  b", "find a knob; a chain's slots, bypass"),
            ("A  X  <  >  R", "add a slot; remove, move, restart it"),
            ("d  D  u  r", "reset focused, reset all; undo, redo"),
            ("p  s", "load a preset, save the preset"),
            ("c", "vertical or circular drag"),
            ("M", "mute the level; again: unmute"),
            ("m", "MIDI learn: turn a controller"),
            ("f", "load a file (Tab completes the path)"),
            ("q  Ctrl-C", "quit (Ctrl-Z suspends)"),
            ("mouse drag", "turn; sideways away: finer"),
            ("click", ascii ? "flip a switch, step a < label >" : "flip a switch, step a ‹ label ›"),
            ("wheel", "turn a step (Ctrl or Alt: fine)"),
            ("double-click", "reset to default"),
            ("paste", "into a prompt only"),
        ]
    }

    public static func draw(ascii: Bool, into screen: inout ScreenBuffer) {
        let entries = lines(ascii: ascii)
        let keyWidth = entries.map { DisplayWidth.of($0.0) }.max() ?? 0
        let textWidth = entries.map { DisplayWidth.of($0.1) }.max() ?? 0
        let box = OverlayBox(title: "Help", footer: "Esc or ? closes", width: keyWidth + textWidth + 6,
                      height: entries.count + 2, ascii: ascii, screen: screen)
        box.drawFrame(into: &screen)
        for (i, entry) in entries.enumerated() where i < box.height - 2 {
            let y = box.y + 1 + i
            screen.put(entry.0, x: box.x + 2, y: y, role: .prompt, limit: box.width - 4)
            screen.put(entry.1, x: box.x + 4 + keyWidth, y: y, role: .overlay, limit: box.width - 6 - keyWidth)
        }
    }
}
