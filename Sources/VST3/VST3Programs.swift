import BinaryPlugins
import CPluginKernel
import CVst3
import Parameters
import PluginFormats
import Presets

/// A VST3 plug-in's own programs: the list of its program-change parameter (a list parameter
/// flagged `kIsProgramChange`, which a host sets to choose a program, as a unit's program
/// list is chosen by; DPF's builds offer their programs so), named by the controller's text
/// for each step. Each program is a read-only factory preset of the values the controller
/// gives every parameter once it is chosen, so that the rows say what the plug-in holds
/// (`detent preset list --plugin vst3:ZamEQ2`, `--preset CarvedBass`). The program-change
/// parameter itself is no row: a preset's values are the whole of what it sets in a plug-in
/// whose programs are parameter values; one whose programs hold more than its parameters
/// keeps that part to its state.
enum VST3Programs {
    struct Program {
        var name: String
        /// The value of each parameter (by its place in ``BinaryPlugin/parameters``) with the
        /// program chosen, in the row's unit.
        var values: [Int: Double]
    }

    /// The programs as factory presets, read from an instance made for this when they are
    /// first asked for; none when the plug-in has no program list or cannot be made.
    static func factory(for plugin: BinaryPlugin) -> [FactoryPreset] {
        guard plugin.unhostableReason == nil, let (table, rows) = try? BinaryTable.make(plugin) else { return [] }
        return read(plugin).map { program in
            let file = String(program.name.map { $0 == "/" ? "-" : $0 })
            return FactoryPreset(fileName: file + ".vst3", source: "\(plugin.name) program '\(program.name)'") {
                var assigned: [ParameterIndex: Double] = [:]
                for (row, k) in rows.enumerated() {
                    if let value = program.values[k] { assigned[ParameterIndex(row)] = table[ParameterIndex(row)].clamp(value) }
                }
                return PresetCodec.encode(Preset(
                    name: program.name, comment: "\(plugin.name)'s program '\(program.name)'",
                    values: ParameterValues(table: table, assigned), processor: plugin.identifier))
            }
        }
    }

    /// Each program's name and values, read by choosing it in turn on the controller of an
    /// instance made (and released) under the plug-in lifecycle lock; none without a list (a
    /// list of one is one program, as an LV2 build's one preset is).
    static func read(_ plugin: BinaryPlugin) -> [Program] {
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        guard let instance = try? VST3Instance(plugin, sampleRate: 48_000, maxFrames: 4096) else { return [] }
        let record = instance.record
        var list: DetentVst3Parameter?
        for index in 0..<detent_vst3_parameter_count(record) {
            var p = DetentVst3Parameter()
            if detent_vst3_parameter(record, index, &p), p.is_program_change, p.is_list, p.steps >= 0 { list = p; break }
        }
        guard let list, list.steps <= 16_384 else { return [] }
        let steps = Int(list.steps)
        var used = Set<String>(), programs: [Program] = []
        for step in 0...steps {
            let normalized = steps == 0 ? 0 : Double(step) / Double(steps)
            var found = false
            let shown = VST3Scan.trimmed(VST3Scan.filled { found = detent_vst3_parameter_text(record, list.identifier, normalized, $0, $1) })
            let base = found && !shown.isEmpty ? shown : "Program \(step + 1)"
            var name = base, n = 2
            while !used.insert(name.lowercased()).inserted { name = "\(base) \(n)"; n += 1 }
            guard detent_vst3_set_parameter_normalized(record, list.identifier, normalized) else { return [] }
            var values: [Int: Double] = [:]
            for (k, p) in plugin.parameters.enumerated() where !p.isOutput {
                let n = detent_vst3_parameter_normalized(record, p.id)
                guard n.isFinite else { continue }
                values[k] = p.maximum > p.minimum ? p.minimum + n * (p.maximum - p.minimum) : n
            }
            programs.append(Program(name: name, values: values))
        }
        return programs
    }
}
