import Parameters

/// Something in a preset file that was read anyway, with a correction the person should know
/// about. Returned as values for the caller to print (`warning: …` on stderr), never printed here.
public struct PresetWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file concerned (a path, or `factory preset Dark.json`).
    public let source: String
    public let problem: Problem

    public init(_ problem: Problem, source: String) {
        self.problem = problem
        self.source = source
    }

    /// One line, safe to print (see ``PresetError/description``).
    public var description: String { PresetName.printable("\(source): \(problem)") }

    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// A parameter id this release does not know; its value is ignored.
        case unknownParameter(String, valid: [String])
        /// A top-level field this release does not know; it is ignored (and not saved back).
        case unknownField(String)
        /// A value outside the table range: `written` as it appears in the file, `clampedTo` what is used.
        case clamped(ParameterSpec, written: String, clampedTo: Double)
        /// An older format was read and converted; saving the preset writes the current format.
        case migrated(from: Int, to: Int)
        /// The user's Default preset cannot be read, so the factory Default is used instead.
        case brokenUserDefault(reason: String)

        public var description: String {
            switch self {
            case .unknownParameter(let id, let valid):
                "unknown parameter '\(id)' ignored (valid ids: \(valid.joined(separator: ", ")))"
            case .unknownField(let field):
                "unknown field \"\(field)\" ignored"
            case .clamped(let id, let written, let value):
                "\(id.id) value \(written) is out of range (\(Self.rangeText(id))); clamped to \(id.format(value, ascii: true))"
            case .migrated(let from, let to):
                "converted from preset format \(from) to \(to)"
            case .brokenUserDefault(let reason):
                "the user Default preset cannot be used (\(reason)); using the factory Default"
            }
        }

        /// The range as the table formats its ends.
        private static func rangeText(_ spec: ParameterSpec) -> String {
            return "\(spec.format(spec.range.lowerBound, ascii: true)) … \(spec.format(spec.range.upperBound, ascii: true))"
        }
    }
}
