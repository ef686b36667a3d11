/// The position of a parameter in its processor's ``ParameterTable``.
///
/// A table is a runtime value — the built-in engine has three rows, a plug-in as many as it
/// has control inputs — so a parameter is named by where its row is, not by a closed set of
/// cases. The index is what travels to the audio thread (a plain integer, no strings); the
/// row's stable text ``ParameterSpec/id`` is what people type and presets store.
///
/// ```swift
/// let table = LowpassGain.table
/// let cutoff = try table.index(of: "cutoff")   // ParameterIndex(0)
/// table[cutoff].format(1200)                   // "1.20 kHz"
/// ```
public struct ParameterIndex: Sendable, Hashable, Comparable, BitwiseCopyable, CustomStringConvertible {
    /// The row number, from 0.
    public let rawValue: Int

    public init(_ rawValue: Int) {
        precondition(rawValue >= 0, "a parameter index is never negative")
        self.rawValue = rawValue
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "#\(rawValue)" }
}
