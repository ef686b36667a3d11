import AudioEngine
import Parameters

/// Saving an LV2 plug-in's state for a preset: the plug-in is made as a render would make it
/// (its saved state restored, its files loaded), asked for its state, and the state written
/// into a folder with copies of the files it refers to (see ``PluginInstances/saveState(to:)``).
public enum PluginStates {
    /// Saves the state of `processor`'s LV2 plug-in — with the files and state it is set to —
    /// into `directory`, which a preset names `relative`. (A chain's slots, and other
    /// formats' plug-ins, are Rig's `ProcessorStates`'.)
    ///
    /// - Returns: the state as the preset records it: the folder `relative` and the files
    ///   copied into it.
    /// - Throws: a ``PluginError`` for a plug-in that cannot be found or made, or whose state
    ///   cannot be written.
    public static func save(_ processor: Processor, to directory: String, as relative: String) throws(PluginError) -> SavedState {
        guard let plugin = PluginCatalog.plugin(uri: processor.identifier) else {
            throw .unknown(processor.identifier, closest: [])
        }
        let (table, ports) = try PluginTable.make(plugin)
        let instances = try PluginInstances(
            plugin: plugin, parameterPorts: ports, defaults: table.specs.map(\.defaultValue), ranges: table.specs.map(\.range),
            format: KernelFormat(sampleRate: 48_000, maxFrames: 4096, channels: max(1, plugin.audioInputs.count)),
            files: processor.files, state: processor.state)
        return .folder(path: relative, files: try instances.saveState(to: directory))
    }
}
