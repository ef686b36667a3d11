import BinaryPlugins
import CPluginKernel
import CVst3
import Parameters
import Platform
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
    /// The program-change parameter's names, read by the scan (so a listing or a lookup by
    /// preset name opens no plug-in); none without a list (a list of one is one program, as
    /// an LV2 build's one preset is). Names are made unique, as presets' must be.
    static func names(_ record: OpaquePointer) -> [String] {
        guard let list = list(record) else { return [] }
        var used = Set<String>()
        return (0...Int(list.steps)).map { step in
            var found = false
            let shown = VST3Scan.trimmed(VST3Scan.filled {
                found = detent_vst3_parameter_text(record, list.identifier, normalized(step, of: list), $0, $1)
            })
            return BinaryPrograms.unique(found && !shown.isEmpty ? shown : "Program \(step + 1)", in: &used)
        }
    }

    /// The programs as factory presets: named from the scan, their values read from an
    /// instance made for this when the first is read.
    static func factory(for plugin: BinaryPlugin) -> [FactoryPreset] {
        guard !plugin.programs.isEmpty, plugin.unhostableReason == nil, let (table, rows) = try? BinaryTable.make(plugin) else { return [] }
        let values = Lazy { programValues(plugin) }
        return plugin.programs.enumerated().map { step, name in
            BinaryPrograms.preset(name, of: plugin, suffix: "vst3", comment: "\(plugin.name)'s program '\(name)'", table: table) {
                let program = step < values.value.count ? values.value[step] : [:]
                var assigned: [ParameterIndex: Double] = [:]
                for (row, k) in rows.enumerated() {
                    if let value = program[k] { assigned[ParameterIndex(row)] = table[ParameterIndex(row)].clamp(value) }
                }
                return assigned
            }
        }
    }

    /// Each program's value of every writable parameter (by its place in
    /// ``BinaryPlugin/parameters``, in the row's unit), read by choosing the program in turn on
    /// the controller of an instance made (and released) under the plug-in lifecycle lock;
    /// none when it cannot be made.
    static func programValues(_ plugin: BinaryPlugin) -> [[Int: Double]] {
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        guard let instance = try? VST3Instance(plugin, sampleRate: VST3Scan.sampleRate, maxFrames: Int(VST3Scan.maxFrames)),
              let list = list(instance.record) else { return [] }
        return (0...Int(list.steps)).map { step in
            guard detent_vst3_set_parameter_normalized(instance.record, list.identifier, normalized(step, of: list)) else { return [:] }
            var values: [Int: Double] = [:]
            for (k, p) in plugin.parameters.enumerated() where !p.isOutput {
                let n = detent_vst3_parameter_normalized(instance.record, p.id)
                guard n.isFinite else { continue }
                values[k] = p.maximum > p.minimum ? p.minimum + n * (p.maximum - p.minimum) : n
            }
            return values
        }
    }

    /// The program-change parameter, when the controller has one that lists its programs.
    private static func list(_ record: OpaquePointer) -> DetentVst3Parameter? {
        for index in 0..<detent_vst3_parameter_count(record) {
            var p = DetentVst3Parameter()
            if detent_vst3_parameter(record, index, &p), p.is_program_change, p.is_list, p.steps >= 0, p.steps <= 16_384 { return p }
        }
        return nil
    }

    /// The normalized value of program `step` of `list`.
    private static func normalized(_ step: Int, of list: DetentVst3Parameter) -> Double {
        list.steps == 0 ? 0 : Double(step) / Double(list.steps)
    }
}
