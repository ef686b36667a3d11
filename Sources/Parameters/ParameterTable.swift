/// The parameters of one processor, in the order its audio code reads them: a value, not a
/// type, so the built-in engine and any plug-in describe themselves the same way.
///
/// Every surface that shows, parses, stores or maps a parameter reads its row here; nothing
/// else hard-codes a range, default or unit. Rows are addressed by ``ParameterIndex`` and
/// found by their stable text id (case-insensitive), which must be unique in the table.
///
/// ```swift
/// let table = try ParameterTable([
///     ParameterSpec(id: "mix", name: "Mix", unit: .percent, range: 0...100, taper: .linear,
///                   defaultValue: 50, smoothing: .linear),
/// ])
/// let (mix, value) = try table.parseAssignment("mix=25")   // (#0, 25)
/// ```
public struct ParameterTable: Sendable, Hashable, RandomAccessCollection {
    /// The rows, in index order.
    public let specs: [ParameterSpec]
    /// Lower-cased id → row number.
    private let positions: [String: Int]

    /// A table of `specs`.
    ///
    /// - Throws: ``ParameterError/duplicateID(_:)`` when two rows share an id (ids are
    ///   compared case-insensitively, as people type them).
    public init(_ specs: [ParameterSpec]) throws(ParameterError) {
        var positions: [String: Int] = [:]
        for (i, spec) in specs.enumerated() {
            let key = spec.id.lowercased()
            guard positions[key] == nil else { throw .duplicateID(spec.id) }
            positions[key] = i
        }
        self.specs = specs
        self.positions = positions
    }

    public var startIndex: ParameterIndex { ParameterIndex(0) }
    public var endIndex: ParameterIndex { ParameterIndex(specs.count) }
    public func index(after i: ParameterIndex) -> ParameterIndex { ParameterIndex(i.rawValue + 1) }
    public func index(before i: ParameterIndex) -> ParameterIndex { ParameterIndex(i.rawValue - 1) }

    /// The row at `index`.
    public subscript(index: ParameterIndex) -> ParameterSpec { specs[index.rawValue] }

    /// Every index, in table order.
    public var ids: [ParameterIndex] { Array(indices) }

    /// The stable text ids, in table order.
    public var textIDs: [String] { specs.map(\.id) }

    /// The index of the row whose id is `text` (case-insensitive, surrounding spaces ignored).
    ///
    /// - Throws: ``ParameterError/unknownID(_:valid:)`` naming the valid ids.
    public func index(of text: String) throws(ParameterError) -> ParameterIndex {
        guard let i = positions[text.trimmedWhitespace.lowercased()] else {
            throw .unknownID(text, valid: textIDs)
        }
        return ParameterIndex(i)
    }

    /// The index of the row whose id is `text`, or nil.
    public func find(_ text: String) -> ParameterIndex? {
        positions[text.trimmedWhitespace.lowercased()].map(ParameterIndex.init)
    }

    /// Parses `ID=VALUE` as typed on the command line (`cutoff=1.2k`, `gain=-6dB`).
    public func parseAssignment(_ text: String) throws(ParameterError) -> (ParameterIndex, Double) {
        guard let eq = text.firstIndex(of: "=") else { throw .notAnAssignment(text, valid: textIDs) }
        let index = try index(of: String(text[..<eq]))
        let value = try self[index].parse(String(text[text.index(after: eq)...]))
        return (index, value)
    }

    /// Every parameter at its default value.
    public var defaults: [ParameterIndex: Double] {
        Dictionary(uniqueKeysWithValues: indices.map { ($0, self[$0].defaultValue) })
    }

    /// `values` completed with defaults for the parameters it lacks and clamped into range;
    /// keys outside the table are dropped.
    public func complete(_ values: [ParameterIndex: Double]) -> [ParameterIndex: Double] {
        Dictionary(uniqueKeysWithValues: indices.map { i in (i, self[i].clamp(values[i] ?? self[i].defaultValue)) })
    }

    public static func == (a: Self, b: Self) -> Bool { a.specs == b.specs }
    public func hash(into hasher: inout Hasher) { hasher.combine(specs) }
}
