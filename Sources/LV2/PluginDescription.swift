/// An installed LV2 plug-in, read from its description without instantiating it.
public struct PluginDescription: Sendable, Hashable {
    public let uri: String
    public let name: String
    /// The plug-in's class label (`Filter`, `Reverb`, `Instrument`).
    public let className: String
    public let ports: [PortDescription]
    /// Features the plug-in cannot run without.
    public let requiredFeatures: [String]
    /// Extensions whose data the plug-in offers (`worker#interface`, `state#interface`).
    public let extensionData: [String]
    /// True when the plug-in has a default state (`state:state`) to load after instantiation.
    public let hasDefaultState: Bool
    /// True when the plug-in asks for blocks it can count on (buf-size's `coarseBlockLength`,
    /// `fixedBlockLength` or `powerOf2BlockLength`, required or optional): convoLV2 convolves
    /// in blocks of the length it was told and is silent for a run of another. Its runs are
    /// never cut at events or while its controls glide (see `Processor.runsWholeBlocks`).
    public var runsWholeBlocks = false
    /// True when the plug-in reads the nominal block length (`opts:supportedOption
    /// bufsz:nominalBlockLength`) and may size its work by it (ZamVerb and ZamHeadX2 convolve
    /// in partitions of it): a render's last, shorter run is padded to a whole block for it
    /// (``Processor/padsLastRun``).
    public var padsLastRun = false
    /// Who made it (`doap:maker`'s `foaf:name`), or empty.
    public var maker = ""
    /// The properties a host may write with `patch:Set` (`patch:writable`), in URI order.
    public var properties: [PropertyDescription] = []
    /// The properties the plug-in reports with `patch:Set` in its atom outputs
    /// (`patch:readable`), in URI order.
    public var readableProperties: [PropertyDescription] = []

    public static func == (a: Self, b: Self) -> Bool { a.uri == b.uri }
    public func hash(into hasher: inout Hasher) { hasher.combine(uri) }

    /// Main audio inputs and outputs: side-chain inputs are connected to silence, not to the
    /// file's channels.
    public var audioInputs: [PortDescription] { ports.filter { $0.kind == .audio && $0.isInput && !$0.isSideChain } }
    public var audioOutputs: [PortDescription] { ports.filter { $0.kind == .audio && !$0.isInput && !$0.isSideChain } }
    /// The side-chain inputs (`lv2:isSideChain`, or in a group that is a side chain of
    /// another): fed the slot's side signal (`--sidechain`), else silence.
    public var sideChainInputs: [PortDescription] { ports.filter { $0.kind == .audio && $0.isInput && $0.isSideChain } }
    /// The control inputs, which become the parameter table, and the control outputs (meters).
    public var controlInputs: [PortDescription] { ports.filter { $0.kind == .control && $0.isInput } }
    public var controlOutputs: [PortDescription] { ports.filter { $0.kind == .control && !$0.isInput } }
    /// The control output that reports latency, if any.
    public var latencyPort: PortDescription? { controlOutputs.first { $0.reportsLatency } }
    /// True for plug-ins with an event (MIDI) input.
    public var hasMIDIInput: Bool { midiInput != nil }
    /// The atom input that receives MIDI (the first that supports it).
    public var midiInput: PortDescription? { ports.first { $0.kind == .atom && $0.isInput && $0.supportsMIDI } }
    /// The atom output the plug-in writes MIDI to (the first that supports it), if any.
    public var midiOutput: PortDescription? { ports.first { $0.kind == .atom && !$0.isInput && $0.supportsMIDI } }
    /// A MIDI effect or generator with no audio (a transposer, a channel map, a sequencer):
    /// MIDI out, and usually MIDI in. Hosted offline, into a MIDI file (`render --midi-out`).
    public var isMIDIOnly: Bool {
        audioInputs.isEmpty && audioOutputs.isEmpty && midiOutput != nil
    }
    /// The atom input that reads the transport's position (tempo, bar, beat), if any.
    public var timeInput: PortDescription? { ports.first { $0.kind == .atom && $0.isInput && $0.supportsTimePosition } }
    /// The file parameters: writable `atom:Path` properties, reachable through ``patchInput``.
    public var fileProperties: [PropertyDescription] { patchInput == nil ? [] : properties.filter(\.isFile) }
    /// The message parameters: writable numeric properties, rows of the table after the
    /// control ports, reachable through ``patchInput``.
    public var numericProperties: [PropertyDescription] { patchInput == nil ? [] : properties.filter(\.isNumeric) }
    /// The output parameters: readable numeric properties, output values like control output
    /// ports (asked for with `patch:Get` through ``patchInput``, reported in an atom output).
    public var numericReadableProperties: [PropertyDescription] {
        patchInput == nil || !ports.contains(where: { $0.kind == .atom && !$0.isInput }) ? [] : readableProperties.filter(\.isNumeric)
    }
    /// A plug-in with no audio and no MIDI out that takes messages (parameters, files): it is
    /// hosted for those, and the signal passes through it unchanged.
    public var isMessageOnly: Bool {
        audioInputs.isEmpty && audioOutputs.isEmpty && !isMIDIOnly && patchInput != nil
            && !(properties.isEmpty && readableProperties.isEmpty)
    }
    /// The atom input that takes `patch:Set` messages: the one designated `lv2:control`, else
    /// the first that supports `patch:Message`.
    public var patchInput: PortDescription? {
        let inputs = ports.filter { $0.kind == .atom && $0.isInput }
        return inputs.first { $0.isControlDesignation } ?? inputs.first { $0.takesPatchMessages }
    }
    /// An instrument or generator: audio out, none in. Its sound does not depend on an input
    /// file; an instrument plays the notes of `detent live`'s MIDI input.
    public var isSource: Bool { audioInputs.isEmpty && !audioOutputs.isEmpty }

    /// Why Detent cannot host this plug-in, or nil when it can.
    public var unhostableReason: String? {
        if let feature = requiredFeatures.first(where: { !LV2URI.provided.contains($0) }) {
            return "requires the feature <\(feature)>"
        }
        if let port = ports.first(where: { $0.kind == .unknown && !$0.isOptional }) {
            return "port '\(port.symbol)' is of a type Detent does not support"
        }
        if let port = ports.first(where: { $0.kind == .event && !$0.isOptional }) {
            return "port '\(port.symbol)' uses the old event extension"
        }
        if audioInputs.isEmpty && audioOutputs.isEmpty && !isMIDIOnly && !isMessageOnly { return "has no audio ports" }
        // Audio in and none out (an analyser, an onset detector that writes MIDI): the input
        // passes through, and the plug-in adds its outputs' values and its MIDI.
        if audioInputs.count > 128 || audioOutputs.count > 128 { return "has more than 128 audio ports" }
        return nil
    }

    public var isHostable: Bool { unhostableReason == nil }
}
