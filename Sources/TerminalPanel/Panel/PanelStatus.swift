/// The header's view of a running engine. Every field is optional; the header shows those set.
public struct PanelStatus: Sendable, Hashable {
    /// The JACK client's name.
    public var clientName: String?
    /// Frames per second.
    public var sampleRate: Double?
    /// Frames per period.
    public var bufferSize: Int?
    /// The audio thread's load, in percent.
    public var dspLoad: Double?
    /// Buffer under- and overruns since the start.
    public var xruns: Int?

    public init(clientName: String? = nil, sampleRate: Double? = nil, bufferSize: Int? = nil,
                dspLoad: Double? = nil, xruns: Int? = nil) {
        self.clientName = clientName
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
        self.dspLoad = dspLoad
        self.xruns = xruns
    }

    /// True when no field is set (no audio).
    public var isEmpty: Bool {
        clientName == nil && sampleRate == nil && bufferSize == nil && dspLoad == nil && xruns == nil
    }
}
