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
