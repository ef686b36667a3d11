import Parameters

/// Shorthand for tests of the built-in processor: its rows by index, as the table has them.
/// (Code outside the tests always goes through a table; a test of the built-in knows which.)
extension ParameterIndex {
    /// The built-in table's row for this index.
    public var spec: ParameterSpec { LowpassGain.table[self] }
    /// The built-in table's text id for this index.
    public var id: String { spec.id }
}
