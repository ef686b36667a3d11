/// Why a knob could not be built as asked. Each message names the knob (or the arc) and the
/// offending numbers, so a caller can print it as one line on stderr.
///
/// Values typed by a person are refused with the table's own ``Parameters/ParameterError`` instead,
/// so the panel and the command line show the same messages for the same mistakes.
public enum KnobError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A range bound is NaN or infinite.
    case nonFiniteRange(name: String)
    /// The range holds a single value, so there is nothing to turn.
    case emptyRange(name: String)
    /// The default value lies outside the range.
    case defaultOutsideRange(name: String, value: Double)
    /// A logarithmic taper needs a range above zero.
    case taperNeedsPositiveRange(name: String)
    /// The arc's angles are not finite, not increasing, or span more than a full turn.
    case invalidArc(startDegrees: Double, endDegrees: Double)

    public var description: String {
        switch self {
        case .nonFiniteRange(let name):
            "knob '\(name)': the range must have finite bounds"
        case .emptyRange(let name):
            "knob '\(name)': the range is a single value; a knob needs a minimum below its maximum"
        case .defaultOutsideRange(let name, let value):
            "knob '\(name)': default \(value) lies outside the range"
        case .taperNeedsPositiveRange(let name):
            "knob '\(name)': a logarithmic taper needs a range above zero"
        case .invalidArc(let start, let end):
            "invalid knob arc \(start)° … \(end)°: the end must lie after the start, at most 360° further"
        }
    }
}
