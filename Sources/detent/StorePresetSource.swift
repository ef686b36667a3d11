import Parameters
import DSP
import JackHost
import Presets

/// The live host's presets (`preset load`, `preset save`, `reset` targets): the preset store,
/// the same one `detent preset` and `--preset` use.
struct StorePresetSource: PresetSource {
    let store: PresetStore
    /// The processor the store is for: in a chain, `SLOT:NAME` loads a slot's own preset into
    /// that slot alone (``SlotPresets``).
    var processor: Processor? = nil

    var table: ParameterTable { store.scope.table }

    /// A preset's values (a name or a preset file); its warnings go to stderr.
    func load(_ name: String) throws -> [ParameterIndex: Double] {
        if let processor, let values = try SlotPresets.values(name, in: processor) { return values }
        let loaded = try store.resolve(name)
        for warning in loaded.warnings { Console.warning(warning.description) }
        return Dictionary(uniqueKeysWithValues: loaded.values.ordered.map { ($0.id, $0.value) })
    }

    /// Saves the values as a user preset, replacing one of the same name: typed in a live
    /// session, `preset save NAME` means "keep what I hear now under this name".
    func save(_ name: String, values: [ParameterIndex: Double]) throws {
        try save(name, values: values, midi: nil)
    }

    /// The same, with the MIDI mapping in the preset's `midi` field (what `--preset` starts
    /// a live session with when no `--midi-map` is given).
    func save(_ name: String, values: [ParameterIndex: Double], midi: JSONValue?) throws {
        let preset = Preset(name: name, values: ParameterValues(table: table, values), processor: store.scope.processor, midi: midi)
        _ = try store.save(preset, replacing: true)
    }

    /// The reset targets: the Default preset (the user's, else the factory one).
    func defaults() -> [ParameterIndex: Double] {
        Dictionary(uniqueKeysWithValues: store.defaultValues().values.ordered.map { ($0.id, $0.value) })
    }
}
