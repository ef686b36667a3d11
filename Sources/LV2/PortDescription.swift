import Parameters

/// One port of an LV2 plug-in, as its description declares it.
public struct PortDescription: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case audio, control, atom, cv, event, unknown
    }

    public let index: UInt32
    public let symbol: String
    public let name: String
    public let kind: Kind
    public let isInput: Bool
    /// The declared range and default (nil where the description gives none).
    public let minimum: Double?
    public let maximum: Double?
    public let defaultValue: Double?
    /// `lv2:integer`, `lv2:toggled`, `lv2:enumeration`, `lv2:sampleRate`.
    public let isInteger: Bool
    public let isToggled: Bool
    public let isEnumeration: Bool
    public let isSampleRate: Bool
    /// `pprops:logarithmic`, `pprops:notOnGUI`, `pprops:expensive`.
    public let isLogarithmic: Bool
    public let isNotOnGUI: Bool
    public let isExpensive: Bool
    /// `lv2:connectionOptional`, `lv2:isSideChain`.
    public let isOptional: Bool
    public let isSideChain: Bool
    /// An output that reports the plug-in's latency in frames.
    public let reportsLatency: Bool
    /// An input designated `lv2:enabled`: the plug-in's own bypass (1 on, 0 bypassed), which
    /// it switches without a click itself.
    public var isEnabled = false
    /// For atom inputs: designated `lv2:control` or supporting `patch:Message`, so it is where
    /// the host's `patch:Set` messages go.
    public var takesPatchMessages = false
    public var isControlDesignation = false
    /// The unit's URI (`units:hz`), or its symbol for a unit the plug-in defines itself.
    public let unit: String?
    /// Labelled values, in value order.
    public let scalePoints: [(value: Double, label: String)]
    /// For atom ports: whether they carry MIDI, and the transport's position (`time:Position`:
    /// tempo, bar and beat, what tempo-synced delays read); the buffer size asked for (0: none).
    public let supportsMIDI: Bool
    public let supportsTimePosition: Bool
    public let minimumSize: Int

    public static func == (a: Self, b: Self) -> Bool { a.index == b.index && a.symbol == b.symbol }
    public func hash(into hasher: inout Hasher) { hasher.combine(index); hasher.combine(symbol) }
}

extension PortDescription {
    /// The unit as Detent writes it after a value (`dB`, `Hz`), empty for plain numbers.
    public var unitSymbol: String { isSampleRate ? ParameterUnit.hertz.symbol : PluginTable.unit(unit).symbol }
}
