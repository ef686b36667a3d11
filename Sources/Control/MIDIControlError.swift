/// Why a `--midi-cc` assignment or a `--midi-channel` cannot be taken: one line naming it.
/// Typed commands (`midi channel 17`) and the command line say the same.
public enum MIDIControlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An `ID=CC` that names no parameter, no controller, or one already given.
    case invalidAssignment(String, reason: String)
    case invalidChannel(String)
    /// A MIDI learn that cannot begin (``MIDILearn``), and why.
    case learn(String)

    public var description: String {
        switch self {
        case .invalidAssignment(let text, let reason):
            "invalid --midi-cc '\(text)': \(reason)"
        case .invalidChannel(let text):
            "invalid --midi-channel '\(text)': expected \(MIDIControls.channelRange.lowerBound) … "
                + "\(MIDIControls.channelRange.upperBound) or all"
        case .learn(let reason): reason
        }
    }
}
