import Parameters

/// What the engine runs: a parameter table and the audio code that reads it.
///
/// Detent is a parameter host: a processor provides the table and the audio code; the engine
/// owns everything around them — the queue, smoothing, splitting blocks at events, meters —
/// so the panel, presets, MIDI, automation, live and offline work for any processor alike.
/// The built-in lowpass + gain is ``lowpassGain``; others (plug-ins, test processors) provide
/// an ``ExternalKernel`` made at `prepare`; a ``chain(_:)`` runs several in series as one.
///
/// ```swift
/// let engine = Engine(processor: .lowpassGain)
/// engine.processor.table.count   // 3
/// ```
public struct Processor: Sendable, Equatable {
    /// Stable identifier, stored in presets (`detent:lowpass-gain`, or a plug-in URI).
    public internal(set) var identifier: String
    /// Shown to people (`Lowpass + gain`, a plug-in's name).
    public internal(set) var name: String
    /// The parameters.
    public internal(set) var table: ParameterTable
    /// The audio code.
    var code: Code
    /// Parameters whose every change costs the processor real work (an LV2 port marked
    /// `pprops:expensive`: a filter bank redesigned, an impulse response reloaded). While one
    /// glides it is written on a grid of ``coarseInterval`` frames instead of the engine's.
    public let expensive: Set<ParameterIndex>

    /// True when the audio code takes MIDI messages besides its parameters (an instrument's
    /// notes): the live host passes it every message that does not turn a knob.
    public let acceptsMIDI: Bool

    /// True when the processor has no audio input (an instrument, a generator): its output
    /// does not depend on the input it is given.
    public let isSource: Bool

    /// The read-only values it reports (meters, gain reduction), in the order of
    /// ``KernelReports/outputValues``.
    public let outputs: [OutputSpec]

    /// The row that switches the processor itself on (1) and off (0), if it has one (an LV2
    /// plug-in's `lv2:enabled` port): a chain's bypass of its slot sets it to 0 and lets the
    /// processor fade itself, instead of crossfading around it.
    public let enabledRow: ParameterIndex?

    /// The file parameters (see ``FileParameter``), with the paths chosen so far; a chain's
    /// are its slots', ids `SLOT.ID`. Set with ``settingFiles(_:)``.
    public internal(set) var files: [FileParameter] = []

    /// The processor's own state to restore before its first block (a preset's LV2 state), if
    /// any. Set with ``settingState(_:)``.
    public internal(set) var state: SavedState?

    /// True when the processor writes MIDI messages (an LV2 plug-in's MIDI output), which
    /// its kernel's owner hands over with ``KernelReports/takeMIDIOutput()``.
    public var makesMIDI = false

    /// True when it has no audio at all, only MIDI in and out (a MIDI transposer): it is
    /// rendered from a MIDI file to a MIDI file, with no audio file on either side.
    public var isMIDIOnly = false

    /// How a graph's slots are wired (``graph(_:routing:)``); nil for a chain, whose slots
    /// run in series, and for a processor on its own.
    public internal(set) var routing: GraphRouting?

    /// The side-chain inputs of the processor (an LV2 plug-in's `lv2:isSideChain` audio
    /// inputs): the key a compressor or gate listens to. The engine feeds them the signal a
    /// host binds to the slot (``Engine/SideInput``), else silence.
    public var sideInputs = 0
    /// What a chain names this processor's slot after by default, where the identifier's tail
    /// says nothing to a person (a VST3 class id, a VST2 number): its name. Nil: the tail.
    public var slotNameBase: String?

    /// True when the processor's audio code must run in whole blocks (an LV2 plug-in asking
    /// for coarse or fixed block lengths: convoLV2 is silent for a run of any other length
    /// than its period). The engine then never cuts its runs: events take effect at the
    /// start of the block they fall in (for a chain holding it, every slot's do), its gliding
    /// controls are written once a block, and a render's last, shorter block is padded with
    /// silence for it. A chain's is true when any slot's is.
    public var runsWholeBlocks = false
    /// True when a render's last, shorter run is padded with silence to a whole block for the
    /// processor, though its other runs may be cut (an LV2 plug-in that reads the nominal block
    /// length: ZamVerb convolves in partitions of it, and its output for a shorter last run
    /// is not the convolution). Live, every run is a whole period anyway.
    public var padsLastRun = false

    /// The file the plug-in was named by (`--plugin ./my.clap`), when it was: one outside the
    /// folders searched, which a process that makes it again (an isolated slot's sandbox) finds
    /// there rather than by its identifier. Nil for one found by identifier or name.
    public var foundAt: String?

    /// True when the processor can keep a state of its own beside its values (see
    /// ``SavedState``), which a preset then saves.
    public var keepsState = false

    /// The audio code of a processor with file parameters or a state, given the paths and the
    /// state at `prepare`.
    var fileKernel: (@Sendable (_ format: KernelFormat, _ files: [FileParameter], _ state: SavedState?) throws -> PreparedKernel)?

    /// The processors of a chain, in order, with where their rows are in ``table``; empty
    /// for a single processor.
    public var slots: [Slot] {
        if case .chain(let slots) = code { return slots }
        return []
    }

    /// The grid, in frames, of an expensive parameter's glide.
    public static let coarseInterval = 64

    enum Code: Sendable {
        case lowpassGain
        case external(@Sendable (_ format: KernelFormat) throws -> PreparedKernel)
        case chain([Slot])
    }

    /// A processor whose audio code is an ``ExternalKernel``. `makeKernel` runs at each
    /// engine `prepare` (never on the audio thread) and may allocate and throw.
    public init(
        identifier: String, name: String, table: ParameterTable, expensive: Set<ParameterIndex> = [],
        acceptsMIDI: Bool = false, isSource: Bool = false, outputs: [OutputSpec] = [], enabledRow: ParameterIndex? = nil,
        makeKernel: @escaping @Sendable (_ format: KernelFormat) throws -> PreparedKernel
    ) {
        self.init(identifier: identifier, name: name, table: table, code: .external(makeKernel), expensive: expensive,
                  acceptsMIDI: acceptsMIDI, isSource: isSource, outputs: outputs, enabledRow: enabledRow)
    }

    /// A processor with file parameters or a state of its own: `makeKernel` gets the paths
    /// chosen (see ``settingFiles(_:)``) and the state to restore (``settingState(_:)``) at
    /// each engine `prepare`, and loads them before it returns.
    public init(
        identifier: String, name: String, table: ParameterTable, expensive: Set<ParameterIndex> = [],
        acceptsMIDI: Bool = false, isSource: Bool = false, outputs: [OutputSpec] = [], enabledRow: ParameterIndex? = nil,
        files: [FileParameter], keepsState: Bool = false,
        makeKernel: @escaping @Sendable (_ format: KernelFormat, _ files: [FileParameter], _ state: SavedState?) throws -> PreparedKernel
    ) {
        self.init(identifier: identifier, name: name, table: table, code: .external { format in try makeKernel(format, files, nil) },
                  expensive: expensive, acceptsMIDI: acceptsMIDI, isSource: isSource, outputs: outputs, enabledRow: enabledRow)
        self.files = files
        self.keepsState = keepsState
        fileKernel = makeKernel
    }

    /// The same, for audio code that needs only the sample rate, block length and channels.
    public init(
        identifier: String, name: String, table: ParameterTable, expensive: Set<ParameterIndex> = [],
        makeKernel: @escaping @Sendable (_ sampleRate: Double, _ maxFrames: Int, _ channels: Int) throws -> PreparedKernel
    ) {
        self.init(identifier: identifier, name: name, table: table, expensive: expensive) { format in
            try makeKernel(format.sampleRate, format.maxFrames, format.channels)
        }
    }

    init(identifier: String, name: String, table: ParameterTable, code: Code, expensive: Set<ParameterIndex> = [],
         acceptsMIDI: Bool = false, isSource: Bool = false, outputs: [OutputSpec] = [], enabledRow: ParameterIndex? = nil) {
        self.enabledRow = enabledRow
        self.identifier = identifier
        self.name = name
        self.table = table
        self.code = code
        self.expensive = expensive
        self.acceptsMIDI = acceptsMIDI
        self.isSource = isSource
        self.outputs = outputs
    }

    /// The built-in resonant lowpass followed by a gain stage.
    public static let lowpassGain = Processor(
        identifier: LowpassGain.identifier, name: "Lowpass + gain", table: LowpassGain.table, code: .lowpassGain)

    /// Two processors are the same when they have the same identifier and table.
    public static func == (a: Processor, b: Processor) -> Bool {
        a.identifier == b.identifier && a.table == b.table
    }

    /// True for the built-in lowpass + gain alone.
    public var isBuiltIn: Bool {
        if case .lowpassGain = code { return true }
        return false
    }
}
