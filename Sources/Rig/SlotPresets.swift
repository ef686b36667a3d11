import Platform
import AudioEngine
import Parameters
import Presets

/// A slot's own presets inside a chain: `SLOT:NAME` is the preset NAME of the processor in
/// slot SLOT (an LV2 plug-in's own presets, the built-in's factory presets, the user's presets
/// for that processor), loaded into that slot alone — the other slots keep their values.
///
/// ```sh
/// detent render in.wav --plugin eq=http://gareus.org/oss/lv2/fil4#stereo --plugin builtin --preset builtin:Telephone
/// ```
package enum SlotPresets {
    /// The values `reference` names when it is `SLOT:NAME` for a slot of `processor`, as rows
    /// of the chain's table; nil when it names no slot (then it is a preset of the chain).
    package static func values(_ reference: String, in processor: Processor) throws -> [ParameterIndex: Double]? {
        try load(reference, in: processor)?.values
    }

    /// The values and the saved state (a plug-in's, as the chain's state of that slot alone)
    /// `reference` names when it is `SLOT:NAME` for a slot of `processor`; nil when it names
    /// no slot. Its warnings go to stderr when `warns` (once: the values' reader says them).
    package static func load(_ reference: String, in processor: Processor, warns: Bool = true) throws -> (values: [ParameterIndex: Double], state: SavedState?)? {
        guard let colon = reference.firstIndex(of: ":"), !processor.slots.isEmpty else { return nil }
        let name = String(reference[..<colon])
        guard let slot = processor.slots.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
        let preset = String(reference[reference.index(after: colon)...]).trimmedWhitespace
        let store = try ProcessorReference.find(slot.processor.identifier).store
        let loaded = try store.resolve(preset)
        for warning in loaded.warnings where warns { Console.warning("\(slot.name): \(warning.description)") }
        let values = Dictionary(uniqueKeysWithValues: loaded.values.ordered.map { (slot.row($0.id), $0.value) })
        return (values, slot.processor.keepsState ? loaded.state.map { .slots([slot.name: $0]) } : nil)
    }
}
