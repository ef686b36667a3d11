/// What a knob is doing, for a renderer that draws each state differently.
public enum KnobState: Sendable, Hashable {
    /// Enabled, not focused, not being turned.
    case idle
    /// Has the keyboard focus.
    case focused
    /// A pointer drag or a rotation gesture is in progress.
    case turning
    /// Ignores every gesture; only presets and code may change its value.
    case disabled
}
