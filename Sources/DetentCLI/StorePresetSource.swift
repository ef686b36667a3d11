import RenderJobs
import Platform
import Control
import TextFormats
import Parameters
import AudioEngine
import Presets
import Synchronization
import Rig

/// The live host's presets (`preset load`, `preset save`, `reset` targets): the preset store,
/// the same one `detent preset` and `--preset` use. A live chain edit makes it the store of
/// the new chain (``follow(_:)``).
final class StorePresetSource: PresetSource, @unchecked Sendable {
    /// The store, and the processor it is for: in a chain, `SLOT:NAME` loads a slot's own
    /// preset into that slot alone (``SlotPresets``).
    private let current: Mutex<(store: PresetStore, processor: Processor?)>
    /// The sandbox plan the host runs isolated plug-ins with (`--isolate`), kept in the presets
    /// it saves; nil in process.
    private let isolation: String?

    init(store: PresetStore, processor: Processor? = nil, isolation: String? = nil) {
        current = Mutex((store, processor))
        self.isolation = isolation
    }

    private var store: PresetStore { current.withLock { $0.store } }

    var table: ParameterTable { store.scope.table }

    /// The store's presets that load (factory, then the user's), then other rigs' (a chain's,
    /// a graph's or another plug-in's: loading one live swaps the rig for it).
    func names() -> [String] {
        let own = ((try? store.list()) ?? []).compactMap { listing in
            if case .valid = listing.status { listing.name } else { nil }
        }
        let taken = Set(own.map { $0.lowercased() })
        return own + store.otherRigs().map(\.name).filter { !taken.contains($0.lowercased()) }
    }

    /// The rig the user preset `name` is for, when it is not this one (and no preset of this
    /// rig answers to the name).
    func otherRig(_ name: String) -> String? {
        let store = self.store
        if (try? store.resolve(name)) != nil { return nil }
        return store.otherProcessor(of: name)
    }

    /// Makes the presets those of `processor`, the chain a live edit made.
    func follow(_ processor: Processor) {
        let store = ProcessorReference.store(for: processor)
        current.withLock { $0 = (store, processor) }
    }

    /// A slot's own preset (`SLOT:NAME`) sets that slot's rows alone; any other, every row.
    func valuesToLoad(_ name: String) throws -> [ParameterIndex: Double] {
        let processor = current.withLock { $0.processor }
        if let processor, let values = try SlotPresets.values(name, in: processor) { return values }
        return table.complete(try load(name))
    }

    /// A preset's values (a name or a preset file); its warnings go to stderr.
    func load(_ name: String) throws -> [ParameterIndex: Double] {
        let (store, processor) = current.withLock { ($0.store, $0.processor) }
        if let processor, let values = try SlotPresets.values(name, in: processor) { return values }
        let loaded = try store.resolve(name)
        for warning in loaded.warnings { Console.warning(warning.description) }
        return Dictionary(uniqueKeysWithValues: loaded.values.ordered.map { ($0.id, $0.value) })
    }

    /// The state a preset keeps for the plug-ins (a slot's own preset: that slot's), checked
    /// readable; nil for a processor that keeps none.
    func stateToLoad(_ name: String) throws -> SavedState? {
        let (store, processor) = current.withLock { ($0.store, $0.processor) }
        guard let processor else { return nil }
        return try PresetStates.starting(name, store: store, processor: processor)
    }

    /// Saves the values as a user preset, replacing one of the same name: typed in a live
    /// session, `preset save NAME` means "keep what I hear now under this name".
    func save(_ name: String, values: [ParameterIndex: Double]) throws {
        try save(name, values: values, midi: nil)
    }

    /// The same, with the MIDI mapping in the preset's `midi` field (what `--preset` starts
    /// a live session with when no `--midi-map` is given). A plug-in that keeps a state or
    /// holds files (an impulse response set live) — on its own or in a chain — is saved with
    /// them, in a state folder beside the preset, as `detent preset save` saves one: the
    /// preset then renders and starts with that response.
    func save(_ name: String, values: [ParameterIndex: Double], midi: JSONValue?) throws {
        let (store, processor) = current.withLock { ($0.store, $0.processor) }
        var preset = Preset(name: name, values: ParameterValues(table: store.scope.table, values), processor: store.scope.processor, midi: midi)
        preset.isolate = isolation
        if let processor {
            _ = try PresetStateFolder.save(running: processor, preset, store: store, replacing: true)
        } else {
            _ = try store.save(preset, replacing: true)
        }
    }

    /// The reset targets: the Default preset (the user's, else the factory one).
    func defaults() -> [ParameterIndex: Double] {
        Dictionary(uniqueKeysWithValues: store.defaultValues().values.ordered.map { ($0.id, $0.value) })
    }
}
