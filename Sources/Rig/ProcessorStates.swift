import AudioEngine
import BinaryPlugins
import LV2
import Parameters
import PluginFormats

/// Saving a processor's own state for a preset, whatever its format: a chain's (or graph's)
/// slots that keep one each into a folder of the slot's name; an LV2 plug-in's through lilv
/// (``PluginStates``); a VST2, VST3 or CLAP plug-in's as the bytes its format gives
/// (``BinaryStates``).
package enum ProcessorStates {
    /// Saves the state of `processor` into `directory`, which a preset names `relative`.
    /// - Throws: a ``PluginError`` for a plug-in that cannot be found or made, or whose state
    ///   cannot be written.
    package static func save(_ processor: Processor, to directory: String, as relative: String) throws(PluginError) -> SavedState {
        if !processor.slots.isEmpty {
            var states: [String: SavedState] = [:]
            for slot in processor.slots where slot.processor.keepsState {
                states[slot.name] = try save(slot.processor, to: directory + "/" + slot.name, as: relative + "/" + slot.name)
            }
            return .slots(states)
        }
        for format in InstalledPlugins.binaryBackends.map(BinaryFormat.init) {
            if let plugin = format.plugin(identifier: processor.identifier) {
                return try BinaryStates.save(processor, plugin: plugin, backend: format.backend, to: directory, as: relative)
            }
        }
        return try PluginStates.save(processor, to: directory, as: relative)
    }
}
