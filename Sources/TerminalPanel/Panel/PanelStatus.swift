/// The header's view of a running engine. Every field is optional; the header shows those set.
public struct PanelStatus: Sendable, Hashable {
    /// The JACK server's name (`default` when none was named).
    public var serverName: String?
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
    /// Isolated slots whose process crashed or hung, passing their input through (`R` restarts).
    public var faultedSlots: [String] = []

    public init(serverName: String? = nil, clientName: String? = nil, sampleRate: Double? = nil, bufferSize: Int? = nil,
                dspLoad: Double? = nil, xruns: Int? = nil, faultedSlots: [String] = []) {
        self.serverName = serverName
        self.clientName = clientName
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
        self.dspLoad = dspLoad
        self.xruns = xruns
        self.faultedSlots = faultedSlots
    }

    /// True when no field is set (no audio).
    public var isEmpty: Bool {
        serverName == nil && clientName == nil && sampleRate == nil && bufferSize == nil && dspLoad == nil && xruns == nil
    }
}
