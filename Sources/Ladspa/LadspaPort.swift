/// One port of a LADSPA (or DSSI) plug-in, copied out of its descriptor.
public struct LadspaPort: Sendable, Hashable {
    public let index: UInt32
    public let name: String
    public let isInput: Bool
    /// Audio (a buffer of samples) or control (one value per `run`).
    public let isAudio: Bool
    /// The range hint: `LADSPA_HINT_*` bits and the bounds they make meaningful.
    public let hints: LadspaHints

    public init(index: UInt32, name: String, isInput: Bool, isAudio: Bool, hints: LadspaHints) {
        self.index = index
        self.name = name
        self.isInput = isInput
        self.isAudio = isAudio
        self.hints = hints
    }
}
