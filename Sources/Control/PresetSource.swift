import TextFormats
import Parameters
import AudioEngine

/// Where `--preset`, `preset load` and `preset save` find presets: the one seam between the
/// live host and preset storage, so the Presets module can be wired in without touching
/// the host or the command interpreter.
public protocol PresetSource: Sendable {
    /// The parameters the presets hold values for.
    var table: ParameterTable { get }
    /// The values of the preset `name` (a name, or a path to a preset file). Ids the preset
    /// leaves out take the table default.
    func load(_ name: String) throws -> [ParameterIndex: Double]
    /// What loading the preset `name` sets: every row for a preset of the whole processor (the
    /// ids it leaves out at their defaults); only its slot's rows for one slot's own preset in
    /// a chain (`SLOT:NAME`), so that the other slots keep their values.
    func valuesToLoad(_ name: String) throws -> [ParameterIndex: Double]
    /// The saved state (a plug-in's: the impulse response it holds) loading the preset `name`
    /// restores, if it keeps one for the processor; a slot's own preset (`SLOT:NAME`) gives
    /// that slot's alone.
    func stateToLoad(_ name: String) throws -> SavedState?
    /// Saves `values` as the preset `name`.
    func save(_ name: String, values: [ParameterIndex: Double]) throws
    /// Saves `values` and the MIDI mapping (the preset's `midi` field) as the preset `name`.
    func save(_ name: String, values: [ParameterIndex: Double], midi: JSONValue?) throws
    /// The names of the presets there are (a list to choose from; none when the source
    /// cannot say): this rig's, then other rigs' (loading one swaps the rig).
    func names() -> [String]
    /// The processor (a rig's identifier) the preset `name` is for when it is another rig's
    /// than this one's; nil for this rig's own, or one it cannot say.
    func otherRig(_ name: String) -> String?
}

extension PresetSource {
    public func names() -> [String] { [] }
    public func otherRig(_ name: String) -> String? { nil }

    /// A source that keeps no states restores none.
    public func stateToLoad(_ name: String) throws -> SavedState? { nil }

    /// A source with no slot presets: every preset is the whole processor's.
    public func valuesToLoad(_ name: String) throws -> [ParameterIndex: Double] {
        table.complete(try load(name))
    }

    /// A source that keeps no mappings saves the values alone.
    public func save(_ name: String, values: [ParameterIndex: Double], midi: JSONValue?) throws {
        try save(name, values: values)
    }

    /// The reset targets: the "Default" preset if there is one, else the table defaults.
    public func defaults() -> [ParameterIndex: Double] {
        let preset = (try? load(FactoryDefaultPresets.defaultName)) ?? [:]
        return table.complete(preset)
    }
}

/// A preset source with no storage: it knows one preset, "Default", which is the parameter
/// table's defaults, and cannot save. For tests; `detent live` uses the preset store.
public struct FactoryDefaultPresets: PresetSource {
    public static let defaultName = "Default"

    public let table: ParameterTable

    public init(table: ParameterTable) { self.table = table }

    public func load(_ name: String) throws -> [ParameterIndex: Double] {
        guard name.lowercased() == Self.defaultName.lowercased() else { throw PresetSourceError.unknown(name) }
        return table.defaults
    }

    public func save(_ name: String, values: [ParameterIndex: Double]) throws {
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
