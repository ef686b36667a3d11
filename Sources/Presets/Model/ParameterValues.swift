import DSP

/// One value for every parameter, each finite and inside its table range.
///
/// This is what a preset resolves to and what render, live and the panel start from: there
/// is no "missing" value to handle, because a parameter a preset leaves out takes the table
/// default when the preset is read.
///
/// ```swift
/// var values = ParameterValues()      // the table defaults
/// values[.cutoff] = 800
/// values[.gain] = 99                  // clamped to the top of the gain range
/// ```
public struct ParameterValues: Sendable, Hashable {
    private var storage: [ParameterID: Double]

    /// Every parameter at its table default.
    public init() {
        storage = Dictionary(uniqueKeysWithValues: ParameterID.allCases.map { ($0, $0.spec.defaultValue) })
    }

    /// The table defaults overridden by `values` (each clamped into its range).
    public init(_ values: [ParameterID: Double]) {
        self.init()
        for (id, value) in values { self[id] = value }
    }

    /// The value of `id`. Setting clamps into the table range (NaN becomes the default), so
    /// the values stay valid whatever is assigned.
    public subscript(id: ParameterID) -> Double {
        get { storage[id] ?? id.spec.defaultValue }
        set { storage[id] = id.spec.clamp(newValue) }
    }

    /// The values in table order, for the engine and for display.
    public var ordered: [(id: ParameterID, value: Double)] {
        ParameterID.allCases.map { ($0, self[$0]) }
    }
}
