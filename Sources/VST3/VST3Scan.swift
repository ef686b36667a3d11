import BinaryPlugins
import CVst3
import Platform

/// Reads the plug-ins of one VST3 bundle (in the scanning child): every class of category
/// `Audio Module Class` is made as an instance would be (component, controller, processor set
/// up), asked for its buses, parameters and latency, and released.
enum VST3Scan {
    /// The sample rate and block size plug-ins are set up with for reading.
    static let sampleRate = 48_000.0, maxFrames: Int32 = 1024
    /// The category of the classes that are plug-ins (others are controllers and the like).
    static let pluginCategory = "Audio Module Class"
    /// Named values are read for list parameters of at most this many steps.
    static let labelLimit: Int32 = 256

    /// Every plug-in of the bundle at `path`; one failed entry when it cannot be entered.
    static func plugins(in path: String, backend: VST3Backend) -> [BinaryPlugin] {
        let module: VST3Modules.Module
        switch VST3Modules.open(path) {
        case .success(let opened): module = opened
        case .failure(let failure):
            return [BinaryPlugin(format: backend.name, path: path, identifier: path, name: PathString.name(of: path),
                                 problem: "cannot be loaded: \(failure.reason)")]
        }
        var plugins: [BinaryPlugin] = []
        for index in 0..<detent_vst3_module_class_count(module.pointer) {
            var info = DetentVst3Class()
            guard detent_vst3_module_class(module.pointer, index, &info), text(info.category) == pluginCategory else { continue }
            plugins.append(read(module, info: info, path: path, backend: backend))
        }
        return plugins
    }

    /// One class as a listing entry (with its problem when it cannot be made).
    static func read(_ module: VST3Modules.Module, info: DetentVst3Class, path: String, backend: VST3Backend) -> BinaryPlugin {
        let id = text(info.identifier), subcategories = text(info.subcategories)
        let name = text(info.name).isEmpty ? PathString.split(PathString.name(of: path)).stem : text(info.name)
        var plugin = BinaryPlugin(
            format: backend.name, path: path, identifier: backend.prefix + id, innerID: id, name: name, maker: text(info.vendor),
            category: subcategories.isEmpty ? "Effect" : subcategories, version: text(info.version),
            isInstrument: subcategories.split(separator: "|").contains { $0 == "Instrument" })
        var made: OpaquePointer?
        let reason = failure { made = detent_vst3_instance_new(module.pointer, id, sampleRate, maxFrames, $0, $1) }
        guard let instance = made else {
            plugin.problem = reason
            return plugin
        }
        defer { detent_vst3_instance_free(instance) }
        let buses = detent_vst3_instance_buses(instance)
        plugin.audioInputs = Int(buses.inputs)
        plugin.audioOutputs = Int(buses.outputs)
        plugin.sideInputs = Int(buses.sides)
        plugin.midiInput = buses.midi_input
        plugin.midiOutput = buses.midi_output
        plugin.parameters = (0..<detent_vst3_parameter_count(instance)).compactMap { parameter(instance, index: $0) }
        plugin.latency = Int(detent_vst3_latency(instance))
        plugin.programs = VST3Programs.names(instance)
        // Every VST3 component has a state, and it is the only faithful carrier of what the
        // plug-in keeps beyond the parameters it lists.
        plugin.keepsState = true
        return plugin
    }

    /// Parameter `index`, or nil when it is not one to list: hidden parameters (a plug-in's
    /// internals, such as the MIDI controllers a DPF plug-in maps to parameters) and the
    /// program-change parameter.
    static func parameter(_ instance: OpaquePointer, index: Int32) -> BinaryParameter? {
        var p = DetentVst3Parameter()
        guard detent_vst3_parameter(instance, index, &p), !p.is_hidden, !p.is_program_change else { return nil }
        var labels: [BinaryLabel] = []
        if p.is_list, p.steps > 0, p.steps <= labelLimit {
            for step in 0...p.steps {
                let normalized = Double(step) / Double(p.steps)
                var found = false
                let name = filled { found = detent_vst3_parameter_text(instance, p.identifier, normalized, $0, $1) }
                if found, !name.isEmpty { labels.append(BinaryLabel(value: p.minimum + normalized * (p.maximum - p.minimum), text: name)) }
            }
        }
        // A unit names plain values: a row kept in 0…1 has none.
        let unit = p.is_plain ? trimmed(text(p.unit)) : ""
        return BinaryParameter(id: p.identifier, name: trimmed(text(p.name)), unit: unit, minimum: p.minimum, maximum: p.maximum,
                               defaultValue: p.default_value, steps: Int(p.steps), isOutput: p.is_read_only, isBypass: p.is_bypass,
                               labels: labels)
    }

    /// `text` without the spaces around it (some plug-ins give a unit of one space).
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// The text a C function writes into a buffer.
    static func filled(_ body: (UnsafeMutablePointer<CChar>, Int) -> Void) -> String {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 512)
        defer { buffer.deallocate() }
        buffer[0] = 0
        body(buffer, 512)
        return String(cString: buffer)
    }
}
