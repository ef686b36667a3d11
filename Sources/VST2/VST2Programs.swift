import BinaryPlugins
import CPluginKernel
import CVst2
import Parameters
import PluginFormats
import Platform
import Presets

/// A VST2 plug-in's own programs. The scan reads their names into one more parameter after the
/// plug-in's own, the program row (`program`, an enumeration of the names, its id
/// ``rowID``), so that the index, the table and the bridge's ports carry them with nothing
/// added to ``BinaryPlugin``. The bridge selects the row's program as the plug-in is
/// activated (off the audio thread: VST2 promises nothing about what a program change does).
///
/// Each program is a read-only factory preset holding the program row and the values the
/// program gives every parameter, so that the rows say what the plug-in holds: the program
/// is selected first, then the values sent where they differ.
enum VST2Programs {
    /// The program row's id: not a VST2 parameter index (those count from 0).
    static let rowID = UInt32.max
    /// Programs a scan reads at most (some synths have thousands of slots).
    static let limit: Int32 = 16_384

    /// True when the last of `plugin`'s parameters is the program row.
    static func hasRow(_ plugin: BinaryPlugin) -> Bool { plugin.parameters.last?.id == rowID }

    /// The program row of an open plug-in, read in a scan (which may leave another program
    /// selected), or nil when there are fewer than two programs to choose from. Where some
    /// programs are named, the unnamed ones (empty slots) are left out; where none are, each
    /// is `Program N`. Names are made unique, as an enumeration's labels must be.
    static func row(_ record: OpaquePointer, count: Int32) -> BinaryParameter? {
        guard count > 1 else { return nil }
        let current = detent_vst2_current_program(record)
        let names = (0..<min(count, limit)).map { index in
            VST2Scan.filled { detent_vst2_program_name(record, index, $0, $1) }
        }
        detent_vst2_select_program(record, current)
        let named = names.contains { !$0.isEmpty }
        var used = Set<String>(), labels: [BinaryLabel] = []
        for (index, name) in names.enumerated() where !named || !name.isEmpty {
            let label = BinaryPrograms.unique(name.isEmpty ? "Program \(index + 1)" : name, in: &used)
            labels.append(BinaryLabel(value: Double(index), text: label))
        }
        guard labels.count > 1 else { return nil }
        let last = Double(names.count - 1)
        let start = labels.contains { $0.value == Double(current) } ? Double(current) : labels[0].value
        return BinaryParameter(id: rowID, name: "Program", minimum: 0, maximum: last, defaultValue: start, steps: names.count - 1,
                               labels: labels)
    }

    /// The programs as factory presets: the plug-in is opened here (as a render would) to read
    /// each program's parameter values. None when it has no program row or cannot be opened.
    static func factory(for plugin: BinaryPlugin) -> [FactoryPreset] {
        guard hasRow(plugin), plugin.unhostableReason == nil,
              let (table, rows) = try? BinaryTable.make(plugin),
              let programRow = rows.firstIndex(of: plugin.parameters.count - 1) else { return [] }
        let points: [ScalePoint]
        if case .enumeration(let list) = table[ParameterIndex(programRow)].kind { points = list } else { return [] }
        // Read from the plug-in, all at once, when the first program's values are asked for.
        let values = Lazy { programValues(plugin, programs: points.map { Int32($0.value) }) ?? [] }
        return points.enumerated().map { i, point in
            BinaryPrograms.preset(point.label, of: plugin, suffix: "vst2", comment: "\(plugin.name)'s program \(Int(point.value) + 1)",
                                  table: table) {
                let parameters = i < values.value.count ? values.value[i] : []
                var assigned: [ParameterIndex: Double] = [ParameterIndex(programRow): point.value]
                for (row, k) in rows.enumerated() where k < parameters.count {
                    assigned[ParameterIndex(row)] = plugin.parameters[k].value(normalized: Double(parameters[k]))
                }
                return assigned
            }
        }
    }

    /// Each program's values of the plug-in's own parameters (selected in turn in an instance
    /// made for this), or nil when it cannot be opened.
    static func programValues(_ plugin: BinaryPlugin, programs: [Int32]) -> [[Float]]? {
        // The instance is made and released (closed) inside, while the lock is held.
        func read() -> [[Float]]? {
            guard let instance = try? VST2Instance(plugin, sampleRate: VST2Scan.sampleRate, maxFrames: Int(VST2Scan.maxFrames)) else {
                return nil
            }
            let count = Int32(plugin.parameters.count - 1)
            return programs.map { index in
                detent_vst2_select_program(instance.record, index)
                return (0..<count).map { detent_vst2_parameter_value(instance.record, $0) }
            }
        }
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        return read()
    }
}
