import AudioEngine
import Presets

/// One installed plug-in of any format, as the catalogue lists and finds it: what `detent
/// plugins` shows, the names it answers to, and how to make its processor. The format module
/// that made the entry keeps everything format-specific behind the two closures, so nothing
/// above the catalogue knows which format a processor is.
///
/// ```swift
/// let entry = try catalogue.find("GLAME Butterworth Lowpass")
/// entry.format        // "LADSPA"
/// let processor = try entry.processor()
/// ```
public struct PluginEntry: Sendable {
    /// The format's short name, shown in the listing's FORMAT column (`LV2`, `LADSPA`, `DSSI`).
    public let format: String
    /// What presets and sessions record as the processor, and what `--plugin` takes exactly
    /// (an LV2 URI, `ladspa:ID:LABEL`).
    public let identifier: String
    public let name: String
    /// The class (`Filter`, `Reverb`; `Plugin` where the format gives none).
    public let className: String
    public let audioInputs: Int
    public let audioOutputs: Int
    public let parameters: Int
    /// The ids of its output values (meters, latency).
    public let outputs: [String]
    public let takesMIDI: Bool
    /// MIDI in and out, no audio: hosted offline only, from a MIDI file to a MIDI file.
    public let isMIDIOnly: Bool
    /// Why Detent cannot host it, or nil when it can.
    public let unhostableReason: String?
    /// Who made it (a vendor, an author), or empty where the plug-in does not say.
    public let maker: String
    /// Other texts that name it exactly besides its name and identifier (a LADSPA label), and
    /// texts in which a part of a name is looked for besides the name (an LV2 URI).
    public let aliases: [String]
    public let searchTexts: [String]

    /// Set when a name chose this entry among builds of one plug-in in several formats: what
    /// was chosen and the identifiers that pick the others, for the host to say once.
    public var choiceNote: String?

    private let makeProcessor: @Sendable () throws(PluginError) -> Processor
    private let makePresets: @Sendable () -> [FactoryPreset]

    public init(format: String, identifier: String, name: String, className: String, audioInputs: Int, audioOutputs: Int,
                parameters: Int, outputs: [String], takesMIDI: Bool, isMIDIOnly: Bool = false, unhostableReason: String?,
                maker: String = "", aliases: [String] = [], searchTexts: [String] = [],
                processor: @escaping @Sendable () throws(PluginError) -> Processor,
                factoryPresets: @escaping @Sendable () -> [FactoryPreset]) {
        self.format = format
        self.identifier = identifier
        self.name = name
        self.className = className
        self.audioInputs = audioInputs
        self.audioOutputs = audioOutputs
        self.parameters = parameters
        self.outputs = outputs
        self.takesMIDI = takesMIDI
        self.isMIDIOnly = isMIDIOnly
        self.unhostableReason = unhostableReason
        self.maker = maker
        self.aliases = aliases
        self.searchTexts = searchTexts
        self.makeProcessor = processor
        self.makePresets = factoryPresets
    }

    public var isHostable: Bool { unhostableReason == nil }

    /// The processor that hosts it.
    /// - Throws: ``PluginError/notHostable(name:reason:)`` and the format's own failures.
    public func processor() throws(PluginError) -> Processor {
        if let unhostableReason { throw .notHostable(name: name, reason: unhostableReason) }
        return try makeProcessor()
    }

    /// Its own presets (LV2 presets, DSSI programs) as read-only factory presets.
    public func factoryPresets() -> [FactoryPreset] { makePresets() }

    /// How an ambiguity lists it: the name, the format and the identifier that picks it alone.
    public var candidateText: String { "\(name) (\(format) \(identifier))" }
}
