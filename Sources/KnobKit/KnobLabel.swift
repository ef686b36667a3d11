/// What a knob's label shows: its name when idle, its value while being turned and for a while
/// after (Knob's `valueName` and `valuePersistence`).
public enum KnobLabel: Sendable, Hashable {
    case name(String)
    case value(String)

    /// The text to draw.
    public var text: String {
        switch self {
        case .name(let text), .value(let text): text
        }
    }

    /// True when the label shows the value (a renderer may highlight it).
    public var showsValue: Bool {
        if case .value = self { return true }
        return false
    }
}
