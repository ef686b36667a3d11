/// The parameters of the Detent engine, in the order the engine stores them.
///
/// Every surface that shows, parses, stores or maps a parameter reads the row that
/// ``spec`` returns; nothing else in the project hard-codes a range, default or unit.
/// Adding a parameter means adding a case and its row here (the `switch` makes a
/// missing row a compile error), and wiring it into ``Engine``.
///
/// ```swift
/// let cutoff = ParameterID.cutoff.spec
/// cutoff.format(1200)            // "1.20 kHz"
/// try cutoff.parse("800 Hz")     // 800
/// ```
public enum ParameterID: Int, CaseIterable, Sendable, Hashable, Codable {
    case cutoff
    case resonance
    case gain

    /// The table row for this parameter.
    public var spec: ParameterSpec {
        switch self {
        case .cutoff:
            ParameterSpec(
                id: "cutoff", name: "Cutoff", unit: .hertz,
                range: 20...20_000, taper: .logarithmic, defaultValue: 1_000,
                smoothing: .multiplicative, midiController: 74)  // GM2 "brightness"
        case .resonance:
            ParameterSpec(
                id: "resonance", name: "Resonance", unit: .quality,
                range: 0.5...10, taper: .logarithmic, defaultValue: 0.707,
                smoothing: .linear, midiController: 71)  // GM2 "resonance"
        case .gain:
            ParameterSpec(
                id: "gain", name: "Gain", unit: .decibels,
                range: -60...12, taper: .linear, defaultValue: 0,
                smoothing: .linear, minimumIsSilence: true, midiController: 7)  // "channel volume"
        }
    }

    /// The stable text id used on the command line, in presets and in automation files.
    public var id: String { spec.id }

    /// Looks a parameter up by its text id (case-insensitive).
    ///
    /// - Throws: ``ParameterError/unknownID(_:)`` naming the valid ids.
    public init(parsing text: String) throws(ParameterError) {
        let key = text.trimmedWhitespace.lowercased()
        guard let found = ParameterID.allCases.first(where: { $0.id == key }) else {
            throw .unknownID(text)
        }
        self = found
    }

    /// Parses `ID=VALUE` as typed on the command line (`cutoff=1.2k`, `gain=-6dB`).
    public static func parseAssignment(_ text: String) throws(ParameterError) -> (ParameterID, Double) {
        guard let eq = text.firstIndex(of: "=") else { throw .notAnAssignment(text) }
        let id = try ParameterID(parsing: String(text[..<eq]))
        let value = try id.spec.parse(String(text[text.index(after: eq)...]))
        return (id, value)
    }
}
