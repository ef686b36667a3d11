import AudioEngine
import Parameters
import PluginFormats

extension Processor {
    /// The processor that hosts a LADSPA or DSSI plug-in: its control inputs (and a DSSI
    /// plug-in's programs) are the table, its instances are made at each engine `prepare`.
    ///
    /// - Throws: ``PluginError/notHostable(name:reason:)`` for a plug-in Detent cannot run,
    ///   or a table error.
    public static func ladspa(_ plugin: LadspaPlugin) throws(PluginError) -> Processor {
        if let reason = plugin.unhostableReason { throw .notHostable(name: plugin.name, reason: reason) }
        let (table, ports) = try LadspaTable.make(plugin)
        let defaults = table.specs.map(\.defaultValue), ranges = table.specs.map(\.range)
        let outputs = LadspaTable.outputIDs(plugin).map { id, port in
            let range = port.hints.range(sampleRate: LadspaTable.referenceRate)
            let bounded = port.hints.bounds(sampleRate: LadspaTable.referenceRate)
            return OutputSpec(id: id, name: port.name, unit: LadspaTable.unit(inName: port.name).symbol,
                              range: bounded.lower != nil && bounded.upper != nil ? range : nil)
        }
        return Processor(identifier: plugin.identifier, name: plugin.name, table: table,
                         acceptsMIDI: plugin.isSynth, isSource: plugin.isSource, outputs: outputs) { format in
            try LadspaInstances(plugin: plugin, parameterPorts: ports, defaults: format.startingValues ?? defaults, ranges: ranges,
                                format: format).prepared
        }
    }
}
