import Parameters

/// The processor presets are read and written for: its identifier and its parameter table.
///
/// A preset names its processor, and its values are ids of that processor's table; reading
/// one checks both against the scope, so the built-in engine never loads a plug-in's preset
/// by mistake (or the reverse).
public struct PresetScope: Sendable, Hashable {
    public let processor: String
    public let table: ParameterTable

    public init(processor: String, table: ParameterTable) {
        self.processor = processor
        self.table = table
    }

    /// The built-in lowpass + gain, which the factory presets are written for.
    public static let builtIn = PresetScope(processor: LowpassGain.identifier, table: LowpassGain.table)
}
