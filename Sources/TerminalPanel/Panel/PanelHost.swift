import Control
import Parameters
import AudioEngine
import Presets

/// What the panel drives: an engine running live, or nothing at all while shaping a preset.
///
/// The panel calls ``ParameterHost/set(_:)`` for every value a knob reports and polls the
/// rest every ``refreshInterval`` seconds — the same verbs a typed command uses on a live
/// host. Everything but `set` and `targets` is optional: a host without audio
/// answers nil, and the panel leaves out what it cannot show (meters, the status fields) —
/// which is all the difference between `detent panel` and the panel over a live engine.
///
/// ```swift
/// final class LiveHost: PanelHost {
///     func set(_ values: [ParameterIndex: Double]) { for (id, v) in values { engine.controls.send(ParameterChange(id, v)) } }
///     func targets() -> [ParameterIndex: Double] { latest }
///     var refreshInterval: Double? { 1.0 / 30 }
///     func status() -> PanelStatus { PanelStatus(clientName: "detent", sampleRate: 48_000, …) }
///     func meters() -> [MeterReading]? { … }
/// }
/// ```
///
/// `set` passes a knob's value on (to the engine's queue, or to nothing); `targets` is read
/// once per refresh, and a value that changed without the panel having set it (MIDI, a typed
/// command) moves its knob there.
public protocol PanelHost: ParameterHost {
    /// The header's status fields; all nil without audio.
    func status() -> PanelStatus

    /// One reading per output channel since the previous call; nil without audio.
    func meters() -> [MeterReading]?

    /// The processor's read-only outputs (a plug-in's meters, gain reduction) at their latest
    /// values; none without audio, or for a processor that has none.
    func outputs() -> [PanelOutput]

    /// How often to poll ``ParameterHost/targets()``, ``status()``, ``meters()`` and ``outputs()`` (seconds); nil when
    /// nothing changes unless the panel changes it.
    var refreshInterval: Double? { get }

    /// What the host said since the last call (a slot crashed, the server went): shown in the
    /// panel's message line as it comes, not held until the panel closes.
    func takeNotices() -> [String]

    /// The MIDI controller number each parameter answers to; nil without a MIDI input (the
    /// panel then offers no MIDI learn).
    func midiControllers() -> [ParameterIndex: Int]?

    /// Gives parameter `id` the controller `number`; a parameter that had it loses it.
    func assignMIDIController(_ number: Int, to id: ParameterIndex)

    /// How many control changes have arrived on the channel listened to, mapped or not, and
    /// the last one's number; nil without a MIDI input. MIDI learn waits for the count to move.
    func lastMIDIControl() -> (count: UInt64, controller: Int)?

    /// Where each pickup controller that has not yet caught its knob is (0 … 1), by
    /// parameter: the panel says so, and which way to move it.
    func midiPickups() -> [ParameterIndex: Double]

    /// Runs a command as typed commands, OSC and the browser run theirs (the panel's `A`, `X`,
    /// `<` and `>` chain edits, `f`'s file, `R`'s restart), answered the same way: the one
    /// command language and answer every surface shares. A host without audio refuses what
    /// it cannot do, in one line.
    func perform(_ command: HostCommand) -> CommandAnswer

    /// A number that changes with every chain edit, whoever made it: the panel rebuilds its
    /// knobs (``currentChain()``) when it moves.
    var chainGeneration: Int { get }

    /// The chain hosted now, as the panel shows it; nil for a host whose processor never changes.
    func currentChain() -> PanelChain?

    /// The processor's file parameters with the files they hold; none for a processor
    /// without any, or a host that cannot load files.
    func files() -> [PanelFile]

    /// Saves `preset` into `store` (`s` in the panel), with what the host's processor keeps
    /// beyond its values (a live plug-in's state and files); returns the preset file's path.
    func savePreset(_ preset: Preset, in store: PresetStore, replacing: Bool) throws(PresetError) -> String

    /// Restores a loaded preset's saved state into the host's plug-ins (a live one's kernels
    /// made again with it).
    func restoreState(_ state: SavedState) throws(ChainEditError)
}

/// What the panel needs to show a chain: its values and reset targets, its preset store, its
/// name for the header, and the host's chain generation it is.
public struct PanelChain {
    public let values: ParameterValues
    public let defaults: ParameterValues
    public let store: PresetStore
    public let title: String
    public let generation: Int

    public init(values: ParameterValues, defaults: ParameterValues, store: PresetStore, title: String, generation: Int) {
        self.values = values
        self.defaults = defaults
        self.store = store
        self.title = title
        self.generation = generation
    }
}

extension PanelHost {
    public func status() -> PanelStatus { PanelStatus() }
    public func meters() -> [MeterReading]? { nil }
    public func outputs() -> [PanelOutput] { [] }
    public var refreshInterval: Double? { nil }
    public func takeNotices() -> [String] { [] }
    public func midiControllers() -> [ParameterIndex: Int]? { nil }
    public func assignMIDIController(_ number: Int, to id: ParameterIndex) {}
    public func lastMIDIControl() -> (count: UInt64, controller: Int)? { nil }
    public func midiPickups() -> [ParameterIndex: Double] { [:] }
    /// Without audio: nothing but values, and those the panel sets itself.
    public func perform(_ command: HostCommand) -> CommandAnswer {
        switch command {
        case .chain: .error("the chain can be edited in detent live only")
        case .setFile: .error("files are loaded in detent live only")
        case .restart: .error("restarting is for isolated slots (detent live --isolate)")
        default: .error("this panel runs no audio")
        }
    }
    public var chainGeneration: Int { 0 }
    public func currentChain() -> PanelChain? { nil }
    public func files() -> [PanelFile] { [] }
    /// Without audio there is no plug-in to restore a state into.
    public func restoreState(_ state: SavedState) throws(ChainEditError) {}
    /// Without audio there is no plug-in state: the values alone.
    public func savePreset(_ preset: Preset, in store: PresetStore, replacing: Bool) throws(PresetError) -> String {
        try store.save(preset, replacing: replacing)
    }
}
