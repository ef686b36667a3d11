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
