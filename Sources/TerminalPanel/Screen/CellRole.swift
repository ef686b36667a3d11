/// What a cell shows, rather than how it looks: the screen buffer stores roles, and a
/// ``Theme`` turns them into colours and attributes (or into attributes only, for NO_COLOR).
///
/// Keeping meaning in the buffer lets golden screens record which part of the panel each cell
/// belongs to — a focused knob differs from an idle one in its roles even where the characters
/// are the same — and lets the colour choice change without touching any drawing code.
public enum CellRole: UInt8, Sendable, Hashable, CaseIterable {
    /// Ordinary text.
    case plain
    /// Secondary text: hints, units, axis labels.
    case dim
    /// The header bar.
    case header
    /// The modified marker and other notices in the header.
    case headerNotice
    /// A knob's whole arc.
    case track
    /// The progress arc of an idle knob.
    case progress
    /// The progress arc of the focused knob.
    case progressFocused
    /// The progress arc of a knob being turned.
    case progressTurning
    /// The indicator line from the arc toward the centre.
    case indicator
    /// Tick marks.
    case tick
    /// A knob's name.
    case name
    /// The focused knob's name.
    case nameFocused
    /// A knob's value.
    case value
    /// A value while its knob is turned, and for the label's persistence time after.
    case valueActive
    /// The frequency-response curve.
    case curve
    /// Grid lines of the response plot.
    case grid
    /// The cutoff marker on the response plot's axis.
    case marker
    /// Meter bars below the warning level.
    case meter
    /// Meter bars at or above the warning level.
    case meterHot
    /// The status line's message.
    case status
    /// An error on the status line.
    case error
    /// A prompt and the text being typed.
    case prompt
    /// Boxes of overlays (help, preset browser).
    case overlay
    /// The selected row of an overlay.
    case overlaySelected

    /// One letter per role, for golden screens.
    public var letter: Character {
        switch self {
        case .plain: "."
        case .dim: "d"
        case .header: "H"
        case .headerNotice: "M"
        case .track: "t"
        case .progress: "p"
        case .progressFocused: "P"
        case .progressTurning: "T"
        case .indicator: "i"
        case .tick: "k"
        case .name: "n"
        case .nameFocused: "N"
        case .value: "v"
        case .valueActive: "V"
        case .curve: "c"
        case .grid: "g"
        case .marker: "m"
        case .meter: "e"
        case .meterHot: "E"
        case .status: "s"
        case .error: "X"
        case .prompt: "?"
        case .overlay: "o"
        case .overlaySelected: "O"
        }
    }
}
