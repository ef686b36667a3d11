import Parameters

/// A plug-in's control inputs as a Detent parameter table: the symbol is the id, and the
/// LV2 port properties choose the kind, taper and unit.
enum PluginTable {
    /// The table, and for each row the port it drives.
    static func make(_ plugin: PluginDescription) throws(PluginError) -> (table: ParameterTable, ports: [PortDescription]) {
        var specs: [ParameterSpec] = []
        var taken = Set<String>()
        let ports = plugin.controlInputs
        for port in ports {
            var id = port.symbol
            var n = 2
            while taken.contains(id.lowercased()) { id = "\(port.symbol)_\(n)"; n += 1 }
            taken.insert(id.lowercased())
            specs.append(spec(port, id: id))
        }
        // Message parameters after the ports, by their local name.
        for property in plugin.numericProperties {
            var id = property.id
            var n = 2
            while taken.contains(id.lowercased()) { id = "\(property.id)_\(n)"; n += 1 }
            taken.insert(id.lowercased())
            specs.append(spec(property, id: id))
        }
        do {
            return (try ParameterTable(specs), ports)
        } catch {
            throw .table(name: plugin.name, reason: error.description)
        }
    }

    /// The rate at which an `lv2:sampleRate` port's range is shown in Hz; at other rates the
    /// kernel holds the value to the port's fractions of the actual rate.
    static let referenceRate = 48_000.0

    static func spec(_ port: PortDescription, id: String) -> ParameterSpec {
        let scale = port.isSampleRate ? referenceRate : 1
        var low = (port.minimum ?? 0) * scale, high = (port.maximum ?? 1) * scale
        if !low.isFinite { low = -1e9 }
        if !high.isFinite { high = 1e9 }
        if low > high { swap(&low, &high) }
        if low == high { high = low + 1 }
        var value = port.defaultValue.map { $0 * scale } ?? low
        if !value.isFinite { value = low }
        value = min(max(value, low), high)
        let points = port.scalePoints.filter { $0.value.isFinite }.map { ScalePoint($0.value, $0.label) }
        let kind: ParameterKind =
            port.isToggled ? .toggle
            : port.isEnumeration && !points.isEmpty ? .enumeration(points)
            : port.isInteger || port.isEnumeration ? .integer
            : .continuous
        if case .enumeration(let points) = kind {
            // The range holds every labelled value, so none is clamped away.
            low = min(low, points.map(\.value).min()!)
            high = max(high, points.map(\.value).max()!)
        }
        let logarithmic = port.isLogarithmic && low > 0
        return ParameterSpec(
            id: id, name: port.name, unit: port.isSampleRate ? .hertz : unit(port.unit), range: low...high,
            taper: logarithmic ? .logarithmic : .linear, defaultValue: value,
            smoothing: logarithmic ? .multiplicative : .linear, kind: kind)
    }

    /// The row of a message parameter: a toggle for `atom:Bool`, an integer for `Int` and
    /// `Long`, else continuous; its declared range (0 … 1 when it gives none) and default.
    static func spec(_ property: PropertyDescription, id: String) -> ParameterSpec {
        let type = property.range.map { String($0.dropFirst(LV2URI.atom.count)) } ?? "Float"
        var low = property.minimum ?? 0, high = property.maximum ?? (type == "Bool" ? 1 : max(1, low + 1))
        if !low.isFinite { low = -1e9 }
        if !high.isFinite { high = 1e9 }
        if low > high { swap(&low, &high) }
        if low == high { high = low + 1 }
        var value = property.defaultValue ?? low
        if !value.isFinite { value = low }
        value = min(max(value, low), high)
        let kind: ParameterKind = type == "Bool" ? .toggle : type == "Int" || type == "Long" ? .integer : .continuous
        return ParameterSpec(id: id, name: property.label, unit: unit(property.unit), range: low...high,
                             taper: .linear, defaultValue: value, smoothing: .linear, kind: kind)
    }

    /// The Detent unit of an LV2 unit URI; units Detent does not know are shown as plain numbers.
    static func unit(_ uri: String?) -> ParameterUnit {
        switch uri.map({ $0.hasPrefix(LV2URI.units) ? String($0.dropFirst(LV2URI.units.count)) : $0 }) {
        case "hz": .hertz
        case "db": .decibels
        case "ms": .milliseconds
        case "s": .seconds
        case "pc": .percent
        case "semitone12TET": .semitones
        default: .none
        }
    }
}
