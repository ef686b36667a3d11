import Parameters
import PluginFormats

/// A binary plug-in's writable parameters as a Detent parameter table: ids made from the
/// names as LADSPA's are (``ParameterNaming``), unique in the table; the range and default the
/// plug-in gives, in its own values; on/off, stepped and named values as toggles, integers and
/// enumerations.
package enum BinaryTable {
    /// The table, and for each row its parameter's place in ``BinaryPlugin/parameters``;
    /// each row with the plug-in's own words from `texts`, when given.
    package static func make(_ plugin: BinaryPlugin, texts: BinaryTexts? = nil) throws(PluginError) -> (table: ParameterTable, rows: [Int]) {
        var taken = Set<String>()
        var specs: [ParameterSpec] = [], rows: [Int] = []
        for (k, parameter) in plugin.parameters.enumerated() where !parameter.isOutput {
            let id = ParameterNaming.unique(ParameterNaming.id(fromName: parameter.name, index: parameter.id), in: &taken)
            let plain = spec(parameter, id: id)
            specs.append(texts.map { plain.withOwnTexts($0.row(k, spec: plain)) } ?? plain)
            rows.append(k)
        }
        do {
            return (try ParameterTable(specs), rows)
        } catch {
            throw .table(name: plugin.name, reason: error.description)
        }
    }

    /// The range a parameter's values are held to: its own, or 0…1 when it gives none.
    package static func range(_ p: BinaryParameter) -> ClosedRange<Double> {
        guard p.minimum.isFinite, p.maximum.isFinite, p.minimum < p.maximum else { return 0...1 }
        return p.minimum...p.maximum
    }

    static func spec(_ p: BinaryParameter, id: String) -> ParameterSpec {
        let range = range(p)
        let value = min(max(p.defaultValue.isFinite ? p.defaultValue : range.lowerBound, range.lowerBound), range.upperBound)
        let kind: ParameterKind
        if !p.labels.isEmpty, p.steps > 0 {
            var used = Set<String>()
            let points = p.labels.filter { range.contains($0.value) && used.insert($0.text.lowercased()).inserted }
                .map { ScalePoint($0.value, $0.text) }
            kind = points.count >= 2 ? .enumeration(points) : .integer
        } else if p.steps == 1 {
            kind = .toggle
        } else if p.steps > 1, range.lowerBound == range.lowerBound.rounded(), range.upperBound == range.upperBound.rounded(),
                  Int(range.upperBound - range.lowerBound) == p.steps {
            kind = .integer
        } else {
            kind = .continuous
        }
        let logarithmic = p.logarithmic && kind == .continuous && range.lowerBound > 0
        return ParameterSpec(id: id, name: p.name.isEmpty ? id : p.name, unit: ParameterNaming.unit(p.unit), range: range,
                             taper: logarithmic ? .logarithmic : .linear, defaultValue: kind == .toggle ? value.rounded() : value,
                             smoothing: logarithmic ? .multiplicative : .linear, kind: kind)
    }

    /// The ids of the read-only parameters (meters), made as the rows' are.
    package static func outputIDs(_ plugin: BinaryPlugin) -> [(id: String, index: Int)] {
        var taken = Set<String>()
        return plugin.parameters.enumerated().filter { $0.element.isOutput }.map { k, p in
            (ParameterNaming.unique(ParameterNaming.id(fromName: p.name, index: p.id), in: &taken), k)
        }
    }
}
