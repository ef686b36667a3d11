import Parameters
import AudioEngine

/// One reading of the live host, for the `status` command (and, later, the panel).
public struct HostStatus: Sendable, Equatable {
    /// The server asked for, by name.
    public var server: String
    /// The client's name on the server; nil while disconnected.
    public var client: String?
    public var sampleRate: Int?
    public var bufferSize: Int?
    /// Xruns reported by JACK since start-up, over every connection.
    public var xruns: Int
    /// The server's DSP load in percent (`jack_cpu_load`); nil while disconnected.
    public var dspLoad: Double?
    /// The parameters' targets, in their units: what `get` shows, not a glide's midpoint.
    public var values: [ParameterIndex: Double]
    /// Highest absolute output sample per channel since the previous status.
    public var peaks: [Float]
    /// RMS of each output channel since the previous status (empty before the first block).
    public var rms: [Double]
    /// How many times the host has reconnected after losing the server.
    public var reconnects: Int
    /// Connections the client's ports have now.
    public var connections = 0
    /// Connections the host remembers by name, to make again on a new server (or when a peer's
    /// port returns): those it has now, and those whose peer is missing.
    public var rememberedConnections = 0
    /// MIDI control changes that moved a parameter since start-up.
    public var midiMessages: Int
    /// The processor's read-only outputs (a plug-in's meters, gain reduction), a block old at most.
    public var outputs: [OutputValue] = []
    /// The processor's latency in frames, also reported on the JACK ports.
    public var latency = 0
    /// Output samples a processor made NaN or infinite (or denormal), written as 0.
    public var sanitizedSamples = 0
    /// Isolated slots that crashed or hung, by name, with what happened (`crashed
    /// (Segmentation fault)`): each passes its input through until restarted.
    public var faults: [String: String] = [:]
    /// Slots whose plug-in put out absurd samples (not finite, or beyond ±1e6), by name, with
    /// the frames they passed their input through instead.
    public var absurdOutput: [String: Int] = [:]
    /// The connection patterns (`--connect-inputs '^player:'`), each a rule for the whole run,
    /// with the ports of others it has connected (that are there now).
    public var connectionRules: [ConnectionRule] = []

    public var isConnected: Bool { client != nil }

    public init(server: String, client: String?, sampleRate: Int?, bufferSize: Int?, xruns: Int,
                dspLoad: Double?, values: [ParameterIndex: Double], peaks: [Float], rms: [Double] = [],
                reconnects: Int, midiMessages: Int = 0) {
        self.server = server
        self.client = client
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
        self.xruns = xruns
        self.dspLoad = dspLoad
        self.values = values
        self.peaks = peaks
        self.rms = rms
        self.reconnects = reconnects
        self.midiMessages = midiMessages
    }
}

/// A connection pattern as `status` shows it: the option and pattern, and the peers' ports it
/// connects now.
public struct ConnectionRule: Sendable, Equatable {
    public var rule: String
    public var matched: [String]

    public init(rule: String, matched: [String]) {
        self.rule = rule
        self.matched = matched
    }
}
