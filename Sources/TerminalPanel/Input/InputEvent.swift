/// Everything the terminal sends that the panel understands.
public enum InputEvent: Sendable, Hashable {
    case key(Key, KeyModifiers)
    case mouse(MouseEvent)
    /// A reply to a mode query (DECRQM, `CSI ? mode $ p`): `state` 1 or 2 means the terminal
    /// knows the mode (set or reset), 3 or 4 that it is fixed, 0 that it does not know it.
    case modeReport(mode: Int, state: Int)
    /// A reply to `CSI 16 t`: the size of one character cell in pixels.
    case cellSize(width: Int, height: Int)
    /// Text pasted while bracketed paste is on: text, never keys.
    case paste(String)

    /// A key with no modifiers.
    public static func key(_ key: Key) -> InputEvent { .key(key, []) }
    /// A character key with no modifiers.
    public static func char(_ c: Character) -> InputEvent { .key(.character(c), []) }
}
