/// An installed LADSPA or DSSI plug-in, read from its descriptor without instantiating it
/// (a DSSI plug-in's programs excepted, which only an instance can tell).
public struct LadspaPlugin: Sendable, Hashable {
    public let flavor: LadspaFlavor
    /// The library file, and the descriptor's index in it.
    public let path: String
    public let index: Int
    public let uniqueID: UInt
    public let label: String
    public let name: String
    public let maker: String
    /// `LADSPA_PROPERTY_*` bits.
    public let properties: Int32
    public let ports: [LadspaPort]
    /// A DSSI synth (`run_synth`): it takes notes.
    public let isSynth: Bool
    /// A DSSI plug-in's programs (bank, program, name), in the order it gives them.
    public let programs: [LadspaProgram]
    /// Why the descriptor cannot be hosted as read (malformed), or nil.
    let problem: String?

    public init(flavor: LadspaFlavor, path: String, index: Int, uniqueID: UInt, label: String, name: String, maker: String,
                properties: Int32, ports: [LadspaPort], isSynth: Bool = false, programs: [LadspaProgram] = [],
                problem: String? = nil) {
        self.flavor = flavor
        self.path = path
        self.index = index
        self.uniqueID = uniqueID
        self.label = label
        self.name = name
        self.maker = maker
        self.properties = properties
        self.ports = ports
        self.isSynth = isSynth
        self.programs = programs
        self.problem = problem
    }

    public static func == (a: Self, b: Self) -> Bool { a.path == b.path && a.index == b.index && a.flavor == b.flavor }
    public func hash(into hasher: inout Hasher) { hasher.combine(path); hasher.combine(index) }

    /// What presets record: `ladspa:ID:LABEL` (the ID the LADSPA registry gave, the label to
    /// read it by and to name a chain's slot after).
    public var identifier: String { "\(flavor.prefix)\(uniqueID):\(label)" }

    public var audioInputs: [LadspaPort] { ports.filter { $0.isAudio && $0.isInput } }
    public var audioOutputs: [LadspaPort] { ports.filter { $0.isAudio && !$0.isInput } }
    public var controlInputs: [LadspaPort] { ports.filter { !$0.isAudio && $0.isInput } }
    public var controlOutputs: [LadspaPort] { ports.filter { !$0.isAudio && !$0.isInput } }

    /// `LADSPA_PROPERTY_INPLACE_BROKEN`: its inputs and outputs must never share memory. The
    /// engine never gives a kernel the same buffers in and out, and the folded connection has
    /// buffers of its own, so such a plug-in needs nothing more.
    public var isInPlaceBroken: Bool { properties & 0x2 != 0 }

    /// The output control that reports latency: by the convention Ardour and Carla follow, one
    /// named `latency` (or `_latency`).
    public var latencyPort: LadspaPort? {
        controlOutputs.first { ["latency", "_latency"].contains($0.name.lowercased()) }
    }

    /// No audio input: an instrument or generator.
    public var isSource: Bool { audioInputs.isEmpty && !audioOutputs.isEmpty }

    /// Why Detent cannot host it, or nil when it can.
    public var unhostableReason: String? {
        if let problem { return problem }
        if audioInputs.isEmpty && audioOutputs.isEmpty { return "has no audio ports" }
        // Audio in and none out (an analyser): the input passes through, and the plug-in adds
        // its outputs' values.
        if audioInputs.count > 128 || audioOutputs.count > 128 { return "has more than 128 audio ports" }
        return nil
    }

    public var isHostable: Bool { unhostableReason == nil }
}

/// One program of a DSSI plug-in.
public struct LadspaProgram: Sendable, Hashable {
    public let bank: UInt
    public let program: UInt
    public let name: String
}
