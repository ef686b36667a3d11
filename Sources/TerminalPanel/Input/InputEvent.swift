/// A key as the terminal reports it, after decoding (``InputDecoder``).
public enum Key: Sendable, Hashable {
    /// A printable character, or the letter of a Ctrl combination (`Ctrl-C` is `character("c")`
    /// with ``KeyModifiers/ctrl``).
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case insert, delete
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backTab
    case enter, escape, backspace
    /// F1 … F24.
    case function(Int)
}

/// The modifiers held with a key or a mouse event, as xterm encodes them (bit 0 Shift,
/// bit 1 Alt, bit 2 Ctrl, bit 3 Meta).
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let ctrl = KeyModifiers(rawValue: 4)
    public static let meta = KeyModifiers(rawValue: 8)

    /// The modifiers of xterm's parameter `1 + bits` (`CSI 1 ; 5 A` is Ctrl-Up); none for
    /// parameters out of range.
    init(xtermParameter p: Int) {
        self.init(rawValue: p >= 1 && p <= 16 ? UInt8(p - 1) : 0)
    }

    /// Ctrl, Alt or Meta: what the panel takes as the fine modifier.
    public var isFine: Bool { !intersection([.ctrl, .alt, .meta]).isEmpty }
}

/// A mouse button.
public enum MouseButton: Sendable, Hashable {
    case left, middle, right
    /// Buttons 4 and up that are not wheel notches.
    case other
}

/// A wheel notch's direction.
public enum WheelDirection: Sendable, Hashable {
    case up, down, left, right
}

/// One mouse report (SGR 1006 or SGR-pixel 1016): what happened, where, with which modifiers.
///
/// `x` and `y` count from 0 at the top-left, in cells or pixels: the decoder does not know which,
/// the panel does (it asked for pixel reports or not).
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case press(MouseButton)
        case release(MouseButton)
        /// Moved with the button held.
        case drag(MouseButton)
        /// Moved with no button held (only reported in any-motion mode).
        case move
        case wheel(WheelDirection)
    }

    public var kind: Kind
    public var x: Int
    public var y: Int
    public var modifiers: KeyModifiers

    public init(_ kind: Kind, x: Int, y: Int, modifiers: KeyModifiers = []) {
        self.kind = kind
        self.x = x
        self.y = y
        self.modifiers = modifiers
    }
}

/// Everything the terminal sends that the panel understands.
public enum InputEvent: Sendable, Hashable {
    case key(Key, KeyModifiers)
    case mouse(MouseEvent)
    /// A reply to a mode query (DECRQM, `CSI ? mode $ p`): `state` 1 or 2 means the terminal
    /// knows the mode (set or reset), 3 or 4 that it is fixed, 0 that it does not know it.
    case modeReport(mode: Int, state: Int)
    /// A reply to `CSI 16 t`: the size of one character cell in pixels.
    case cellSize(width: Int, height: Int)

    /// A key with no modifiers.
    public static func key(_ key: Key) -> InputEvent { .key(key, []) }
    /// A character key with no modifiers.
    public static func char(_ c: Character) -> InputEvent { .key(.character(c), []) }
}
