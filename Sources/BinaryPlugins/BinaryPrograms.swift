import Parameters
import Presets

/// What the VST2 and VST3 programs have in common once their names and values are read: one
/// name each, unique as a preset's must be, and a factory preset per program that holds the
/// values it gives the rows.
package enum BinaryPrograms {
    /// `base`, or `base 2`, `base 3` … for the first not in `used` (compared without case),
    /// which then holds it.
    package static func unique(_ base: String, in used: inout Set<String>) -> String {
        var name = base, n = 2
        while !used.insert(name.lowercased()).inserted { name = "\(base) \(n)"; n += 1 }
        return name
    }

    /// The program `name` of `plugin` as a read-only factory preset in a file of the format's
    /// `suffix` (`vst2`), with `comment`; `values` gives the rows' values when it is read.
    package static func preset(_ name: String, of plugin: BinaryPlugin, suffix: String, comment: String, table: ParameterTable,
                              values: @escaping @Sendable () -> [ParameterIndex: Double]) -> FactoryPreset {
        let file = String(name.map { $0 == "/" ? "-" : $0 })
        return FactoryPreset(fileName: file + "." + suffix, source: "\(plugin.name) program '\(name)'", lazyText: {
            PresetCodec.encode(Preset(name: name, comment: comment, values: ParameterValues(table: table, values()),
                                      processor: plugin.identifier))
        })
    }
}
