import Parameters

/// One value for every parameter of a table, each finite and inside its range.
///
/// This is what a preset resolves to and what render, live and the panel start from: there
/// is no "missing" value to handle, because a parameter a preset leaves out takes the table
/// default when the preset is read.
///
/// ```swift
/// var values = ParameterValues(table: LowpassGain.table)   // the table defaults
/// values[.cutoff] = 800
/// values[.gain] = 99                  // clamped to the top of the gain range
/// ```
public struct ParameterValues: Sendable, Hashable {
    /// The table the values belong to.
    public let table: ParameterTable
    private var storage: [Double]

    /// Every parameter at its table default.
    public init(table: ParameterTable) {
        self.table = table
        storage = table.specs.map(\.defaultValue)
    }

    /// The table defaults overridden by `values` (each clamped into its range; indices
    /// outside the table are ignored).
    public init(table: ParameterTable, _ values: [ParameterIndex: Double]) {
        self.init(table: table)
        for (id, value) in values where table.indices.contains(id) { self[id] = value }
    }

    /// The value of `id`. Setting clamps into the table range (NaN becomes the default), so
    /// the values stay valid whatever is assigned.
    public subscript(id: ParameterIndex) -> Double {
        get { storage[id.rawValue] }
        set { storage[id.rawValue] = table[id].clamp(newValue) }
    }

    /// The values in table order, for the engine and for display.
    public var ordered: [(id: ParameterIndex, value: Double)] {
        table.indices.map { ($0, self[$0]) }
    }

    /// The values by index.
    public var dictionary: [ParameterIndex: Double] {
        Dictionary(uniqueKeysWithValues: table.indices.map { ($0, self[$0]) })
    }
}
