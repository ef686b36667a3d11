import DSP

/// Where `--preset`, `preset load` and `preset save` find presets: the one seam between the
/// live host and preset storage, so the Presets module can be wired in without touching
/// the host or the command interpreter.
public protocol PresetSource: Sendable {
    /// The values of the preset `name` (a name, or a path to a preset file). Ids the preset
    /// leaves out take the table default.
    func load(_ name: String) throws -> [ParameterID: Double]
    /// Saves `values` as the preset `name`.
    func save(_ name: String, values: [ParameterID: Double]) throws
}

extension PresetSource {
    /// The reset targets: the "Default" preset if there is one, else the table defaults.
    public func defaults() -> [ParameterID: Double] {
        let preset = (try? load(FactoryDefaultPresets.defaultName)) ?? [:]
        var values: [ParameterID: Double] = [:]
        for id in ParameterID.allCases { values[id] = preset[id] ?? id.spec.defaultValue }
        return values
    }
}

/// A preset source with no storage: it knows one preset, "Default", which is the parameter
/// table's defaults, and cannot save. For tests; `detent live` uses the preset store.
public struct FactoryDefaultPresets: PresetSource {
    public static let defaultName = "Default"

    public init() {}

    public func load(_ name: String) throws -> [ParameterID: Double] {
        guard name.lowercased() == Self.defaultName.lowercased() else { throw PresetSourceError.unknown(name) }
        var values: [ParameterID: Double] = [:]
        for id in ParameterID.allCases { values[id] = id.spec.defaultValue }
        return values
    }

    public func save(_ name: String, values: [ParameterID: Double]) throws {
        throw PresetSourceError.cannotSave(name)
    }
}

/// Why ``FactoryDefaultPresets`` refused.
public enum PresetSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknown(String)
    case cannotSave(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "unknown preset '\(name)' (available: \(FactoryDefaultPresets.defaultName))"
        case .cannotSave(let name):
            "cannot save preset '\(name)': preset storage is not available in this build"
        }
    }
}
