import Parameters
import PluginFormats

/// A LADSPA plug-in's control inputs as a Detent parameter table. LADSPA ports have names but
/// no symbols, so each id is made from its name (`Cutoff Frequency (Hz)` → `cutoff_frequency`,
/// the unit in brackets becoming the row's unit), unique in the table. A DSSI plug-in with
/// programs gets one more row, `program`, an enumeration of its programs' names: its factory
/// presets set it, and the kernel selects the program when it changes.
enum LadspaTable {
    /// The rate at which a sample-rate port's range and default are shown in Hz; at other
    /// rates the kernel holds the value to the port's fractions of the actual rate (as for
    /// LV2's `lv2:sampleRate` ports).
    static let referenceRate = 48_000.0

    /// The id of a DSSI plug-in's program row.
    static let programID = "program"

    /// The table, and for each row the port it drives (nil for the program row).
    static func make(_ plugin: LadspaPlugin) throws(PluginError) -> (table: ParameterTable, ports: [LadspaPort?]) {
        var specs: [ParameterSpec] = []
        var taken = Set<String>()
        var ports: [LadspaPort?] = []
        func unique(_ base: String) -> String { ParameterNaming.unique(base, in: &taken) }
        if !plugin.programs.isEmpty { taken.insert(programID) }
        for port in plugin.controlInputs {
            specs.append(spec(port, id: unique(id(fromName: port.name, index: port.index))))
            ports.append(port)
        }
        if !plugin.programs.isEmpty {
            specs.append(programSpec(plugin.programs))
            ports.append(nil)
        }
        do {
            return (try ParameterTable(specs), ports)
        } catch {
            throw .table(name: plugin.name, reason: error.description)
        }
    }

    /// A control input's row: range, default, kind and taper from its hints at the reference
    /// rate; the unit from its name.
    static func spec(_ port: LadspaPort, id: String) -> ParameterSpec {
        let hints = port.hints
        let range = hints.range(sampleRate: referenceRate)
        let value = hints.startingValue(sampleRate: referenceRate)
        let kind: ParameterKind = hints.isToggled ? .toggle : hints.isInteger ? .integer : .continuous
        let logarithmic = hints.turnsLogarithmically(sampleRate: referenceRate)
        return ParameterSpec(
            id: id, name: port.name, unit: hints.isSampleRate ? .hertz : unit(inName: port.name), range: range,
            taper: logarithmic ? .logarithmic : .linear, defaultValue: value,
            smoothing: logarithmic ? .multiplicative : .linear, kind: kind)
    }

    /// The program row: an enumeration of the programs by index, starting at the first.
    static func programSpec(_ programs: [LadspaProgram]) -> ParameterSpec {
        var used = Set<String>()
        let points = programs.enumerated().map { i, program -> ScalePoint in
            var label = program.name.trimmedWhitespace.isEmpty ? "Program \(i + 1)" : program.name.trimmedWhitespace
            let base = label
            var n = 2
            while !used.insert(label.lowercased()).inserted { label = "\(base) \(n)"; n += 1 }
            return ScalePoint(Double(i), label)
        }
        return ParameterSpec(id: programID, name: "Program", unit: .none, range: 0...Double(max(1, programs.count - 1)),
                             taper: .linear, defaultValue: 0, smoothing: .linear, kind: .enumeration(points))
    }

    /// An id from a port's name (``ParameterNaming/id(fromName:index:)``).
    static func id(fromName name: String, index: UInt32) -> String { ParameterNaming.id(fromName: name, index: index) }

    /// The unit a port's name gives in brackets at its end (`Delay (ms)`, `Gain [dB]`).
    static func unit(inName name: String) -> ParameterUnit { ParameterNaming.unit(inName: name) }
}

extension LadspaTable {
    /// The ids of the control outputs (meters, latency), made from their names as the rows'
    /// are, unique among themselves.
    static func outputIDs(_ plugin: LadspaPlugin) -> [(id: String, port: LadspaPort)] {
        var taken = Set<String>()
        return plugin.controlOutputs.map { port in
            (ParameterNaming.unique(id(fromName: port.name, index: port.index), in: &taken), port)
        }
    }
}
