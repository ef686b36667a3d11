/// Where the progress arc starts; it always ends at the value.
public enum KnobProgressOrigin: Sendable, Hashable {
    /// The start of the arc (a unipolar knob, e.g. cutoff).
    case start
    /// The middle of the arc (a bipolar knob whose centre is its neutral position).
    case center
    /// The position of the scale's factory default: for gain, 0 dB, read from the table.
    case defaultValue
    /// The position of a given value (clamped into the range).
    case value(Double)
}
