import Parameters
import Presets

/// A DSSI plug-in's programs as its read-only factory presets: each sets the `program` row,
/// which selects that program before the next `run_synth` (the controls keep their values).
enum LadspaPrograms {
    static func factory(for plugin: LadspaPlugin) -> [FactoryPreset] {
        guard !plugin.programs.isEmpty, let (table, _) = try? LadspaTable.make(plugin),
              let row = table.find(LadspaTable.programID),
              case .enumeration(let points) = table[row].kind else { return [] }
        return points.map { point in
            let text = PresetCodec.encode(Preset(
                name: point.label, comment: "\(plugin.name)'s program \(Int(point.value) + 1)",
                values: ParameterValues(table: table, [row: point.value]), processor: plugin.identifier))
            return FactoryPreset(fileName: point.label + ".dssi", jsonText: text,
                                 source: "\(plugin.name) program '\(point.label)'")
        }
    }
}
