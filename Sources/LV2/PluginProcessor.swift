import AudioEngine
import Parameters

extension Processor {
    /// The processor that hosts `plugin`: its control inputs are the table, its instances are
    /// made at each engine `prepare`.
    ///
    /// - Throws: ``PluginError/notHostable(name:reason:)`` for a plug-in Detent cannot run, or
    ///   a table error.
    public static func plugin(_ plugin: PluginDescription) throws(PluginError) -> Processor {
        if let reason = plugin.unhostableReason { throw .notHostable(name: plugin.name, reason: reason) }
        let (table, ports) = try PluginTable.make(plugin)
        let defaults = table.specs.map(\.defaultValue), ranges = table.specs.map(\.range)
        let expensive = Set(ports.indices.filter { ports[$0].isExpensive }.map { ParameterIndex($0) })
        let outputs = plugin.controlOutputs.map { port in
            OutputSpec(id: port.symbol, name: port.name, unit: port.unitSymbol,
                       range: port.minimum.flatMap { low in port.maximum.flatMap { high in low < high ? low...high : nil } })
        } + plugin.numericReadableProperties.map { property in
            OutputSpec(id: property.id, name: property.label, unit: property.unitSymbol,
                       range: property.minimum.flatMap { low in property.maximum.flatMap { high in low < high ? low...high : nil } })
        }
        let files = plugin.fileProperties.map { FileParameter(id: $0.id, name: $0.label, identifier: $0.uri, expectsAudio: $0.expectsAudio) }
        var processor = Processor(identifier: plugin.uri, name: plugin.name, table: table, expensive: expensive,
                         acceptsMIDI: plugin.midiInput != nil, isSource: plugin.isSource, outputs: outputs,
                         enabledRow: ports.firstIndex { $0.isEnabled && $0.isToggled }.map { ParameterIndex($0) },
                         files: files, keepsState: plugin.extensionData.contains(LV2URI.stateInterface)) { format, files, state in
            try PluginInstances(plugin: plugin, parameterPorts: ports, defaults: format.startingValues ?? defaults, ranges: ranges,
                                format: format, files: files, state: state).prepared
        }
        processor.makesMIDI = plugin.midiOutput != nil
        processor.isMIDIOnly = plugin.isMIDIOnly
        processor.sideInputs = plugin.sideChainInputs.count
        processor.runsWholeBlocks = plugin.runsWholeBlocks
        processor.padsLastRun = plugin.padsLastRun
        return processor
    }
}

extension PluginInstances: KernelReports {
    /// The output ports' values, then the output parameters' that the plug-in has told.
    var outputValues: [OutputValue] {
        guard !controlOutputs.isEmpty || !readableProperties.isEmpty else { return [] }
        return controlOutputs.map { OutputValue(id: $0.symbol, value: Double(controlValue($0))) }
            + readableProperties.enumerated().compactMap { j, property in
                guard let values = kernel.pointee.readable_values, !values[j].isNaN else { return nil }
                return OutputValue(id: property.id, value: Double(values[j]))
            }
    }

    /// The latency the plug-in reports on its latency port, in frames. A plug-in without
    /// audio outputs passes its input through untouched: its latency (an onset detector's
    /// look-ahead) is its MIDI's alone, and the audio is not moved for it.
    var latency: Int {
        guard let port = latencyPort else { return 0 }
        let frames = controlValue(port)
        return frames.isFinite && frames > 0 ? Int(frames.rounded()) : 0
    }
}
