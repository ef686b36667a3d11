import AudioEngine
import Parameters
import PluginFormats

extension Processor {
    /// The processor that hosts a binary plug-in (VST2, VST3, CLAP): its writable parameters
    /// are the table, its instances are made at each engine `prepare` by its format's backend.
    ///
    /// - Throws: ``PluginError/notHostable(name:reason:)`` for a plug-in Detent cannot run, or
    ///   a table error.
    package static func binary(_ plugin: BinaryPlugin, backend: any BinaryBackend) throws(PluginError) -> Processor {
        if let reason = plugin.unhostableReason { throw .notHostable(name: plugin.name, reason: reason) }
        let (table, rows) = try BinaryTable.make(plugin, texts: BinaryTexts(plugin: plugin, backend: backend))
        let defaults = table.specs.map(\.defaultValue), ranges = table.specs.map(\.range)
        let outputs = BinaryTable.outputIDs(plugin).map { id, k in
            let p = plugin.parameters[k]
            return OutputSpec(id: id, name: p.name, unit: p.unit, range: BinaryTable.range(p))
        }
        var processor = Processor(identifier: plugin.identifier, name: plugin.name, table: table, acceptsMIDI: plugin.midiInput,
                                  isSource: plugin.audioInputs == 0, outputs: outputs, files: [],
                                  keepsState: plugin.keepsState) { format, _, state in
            try BinaryInstances(plugin: plugin, backend: backend, rows: rows, defaults: format.startingValues ?? defaults,
                                ranges: ranges, format: format, state: state).prepared
        }
        processor.sideInputs = plugin.sideInputs
        processor.slotNameBase = plugin.name
        // Told the longest run as their block size, some (a convolver that works in blocks of
        // it) need every run that long: the last one is padded, as for LV2.
        processor.padsLastRun = true
        return processor
    }
}

/// Saving a binary plug-in's own state for a preset: the plug-in is made as a render would make
/// it (its saved state restored), asked for its state, and the bytes written into a folder
/// (`state.bin`), which the preset names.
package enum BinaryStates {
    /// The file of a state folder that holds a binary plug-in's own bytes.
    package static let stateFile = "state.bin"

    /// Saves the state of `processor`'s plug-in into `directory`, which a preset names
    /// `relative`.
    /// - Throws: a ``PluginError`` for a plug-in that cannot be made or whose state cannot be
    ///   written.
    package static func save(_ processor: Processor, plugin: BinaryPlugin, backend: any BinaryBackend, to directory: String,
                             as relative: String) throws(PluginError) -> SavedState {
        let (table, rows) = try BinaryTable.make(plugin)
        let instances = try BinaryInstances(
            plugin: plugin, backend: backend, rows: rows, defaults: table.specs.map(\.defaultValue), ranges: table.specs.map(\.range),
            format: KernelFormat(sampleRate: 48_000, maxFrames: 4096, channels: max(1, plugin.audioInputs)), state: processor.state)
        try instances.saveState(to: directory)
        return .folder(path: relative, files: [])
    }
}
