import Control
import Parameters
import AudioEngine
import JackHost
import Presets
import TerminalPanel

/// The knob panel over a running live host. The panel and typed commands use the same verbs
/// (``ParameterHost``): knob moves reach the engine stamped on its timeline, and one
/// `targets()` snapshot per refresh moves knobs that MIDI or a command turned. What this adds
/// is the header (the JACK status) and the meters (the engine's output since the previous
/// refresh).
package final class LivePanelHost: PanelHost {
    package let host: LiveHost
    /// The one interpreter typed commands, OSC and the browser go through: the panel's chain
    /// edits, files and restarts are its commands too, answered alike.
    private let interpreter: CommandInterpreter
    /// The status read for the header, kept for the meters of the same refresh (the panel
    /// asks for both in turn, and peaks are taken when read).
    private var latest: HostStatus?

    /// The processor's read-only outputs as the panel labels them (name, unit, and range
    /// where the processor gives one), by id; rebuilt when the chain changes.
    private var outputLabels: [String: OutputSpec]
    private var labelsGeneration = 0

    /// The presets of a chain the panel switches to (its factory presets, its Default).
    private let presetStore: (Processor) -> PresetStore

    /// Saves a preset with the running processor's plug-in states and files.
    private let saveWithState: (Preset, Processor, PresetStore, Bool) throws(PresetError) -> String
    private let notices: @Sendable () -> [String]

    /// - Parameters:
    ///   - presetStore: where a processor's presets live (the command line's rule).
    ///   - saveWithState: saves a preset with the state of the processor's plug-ins, as the
    ///     typed `preset save` does (the command line's rule).
    /// - Parameter notices: the host's lines not yet shown (``PanelHost/takeNotices()``).
    package init(host: LiveHost, interpreter: CommandInterpreter, presetStore: @escaping (Processor) -> PresetStore,
                saveWithState: @escaping (Preset, Processor, PresetStore, Bool) throws(PresetError) -> String,
                notices: @escaping @Sendable () -> [String] = { [] }) {
        self.host = host
        self.interpreter = interpreter
        self.presetStore = presetStore
        self.saveWithState = saveWithState
        self.notices = notices
        outputLabels = Self.labels(host.options.processor)
    }

    private static func labels(_ processor: Processor) -> [String: OutputSpec] {
        Dictionary(processor.outputs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The processor's meters and other outputs now.
    package func outputs() -> [PanelOutput] {
        let generation = host.chainGeneration
        if generation != labelsGeneration {
            outputLabels = Self.labels(host.processor)
            labelsGeneration = generation
        }
        return host.outputValues().map { output in
            let label = outputLabels[output.id]
            return PanelOutput(id: output.id, label: label?.name ?? output.id, unit: label?.unit ?? "",
                               range: label?.range, value: output.value)
        }
    }

    package func set(_ values: [ParameterIndex: Double]) { host.set(values) }

    /// Where each knob is heading. Targets rather than smoothed values: a glide in progress
    /// would otherwise look like somebody else turning the knob.
    package func targets() -> [ParameterIndex: Double] { host.targets() }

    package func takeNotices() -> [String] { notices() }

    package func status() -> PanelStatus {
        let status = host.status()
        latest = status
        return PanelStatus(
            serverName: status.client == nil ? nil : status.server,
            clientName: status.client ?? "waiting for JACK server '\(status.server)'",
            sampleRate: status.sampleRate.map(Double.init), bufferSize: status.bufferSize,
            dspLoad: status.dspLoad, xruns: status.xruns, faultedSlots: status.faults.keys.sorted())
    }

    package func meters() -> [MeterReading]? {
        let status = latest ?? host.status()
        latest = nil
        return status.peaks.indices.map { c in
            MeterReading(label: Self.label(channel: c, of: status.peaks.count), peak: Double(status.peaks[c]),
                         rms: c < status.rms.count ? status.rms[c] : 0)
        }
    }

    package func midiControllers() -> [ParameterIndex: Int]? { host.midiControls?.controllers }

    package func assignMIDIController(_ number: Int, to id: ParameterIndex) {
        host.updateMIDIControls { $0.assign(id, to: number) }
    }

    package func lastMIDIControl() -> (count: UInt64, controller: Int)? { host.lastMIDIControl() }

    package func midiPickups() -> [ParameterIndex: Double] { host.midiPickups() }

    package var chainGeneration: Int { host.chainGeneration }

    /// `A`, `X`, `<`, `>`, `f` and `R`, as the typed commands they are. A restart of "" (a
    /// processor alone, which has no slot name in the panel) restarts its one slot.
    package func perform(_ command: HostCommand) -> CommandAnswer {
        if case .restart("") = command {
            return interpreter.execute(.restart(host.processor.chainParts.first?.name ?? ""))
        }
        return interpreter.execute(command)
    }

    /// The chain hosted now, with its values, its preset store's Default and its name.
    package func currentChain() -> PanelChain? {
        let (processor, generation, targets) = host.chainSnapshot
        let store = presetStore(processor)
        let values = ParameterValues(table: processor.table, targets)
        return PanelChain(values: values, defaults: store.defaultValues().values, store: store,
                          title: processor.isBuiltIn ? "Detent" : processor.name, generation: generation)
    }

    /// The processor's file parameters and the files they hold now.
    package func files() -> [PanelFile] {
        host.processor.files.map { PanelFile(id: $0.id, label: $0.name, path: $0.path) }
    }

    /// Thirty refreshes a second: smooth meters, and well under the panel's frame limit.
    package var refreshInterval: Double? { 1.0 / 30 }

    /// `L`/`R` for stereo, channel numbers otherwise.
    package static func label(channel c: Int, of count: Int) -> String {
        count == 2 ? (c == 0 ? "L" : "R") : String(c + 1)
    }

    /// A preset loaded in the panel brings its plug-ins' state back, as the typed `preset load` does.
    package func restoreState(_ state: SavedState) throws(ChainEditError) {
        try host.restoreState(state)
    }

    /// `s` keeps what the typed `preset save` keeps: the running plug-ins' states and files.
    package func savePreset(_ preset: Preset, in store: PresetStore, replacing: Bool) throws(PresetError) -> String {
        try saveWithState(preset, host.processor, store, replacing)
    }
}
