/// Why a parameter id or value typed by a person was refused. Each message names what was
/// typed and what would have been accepted, so it can be printed as one line on stderr.
public enum ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownID(String)
    case notAnAssignment(String)
    case invalidValue(id: String, text: String, expected: String)
    case outOfRange(id: String, text: String, range: String)

    /// The valid ids, for messages.
    public static var validIDs: String { ParameterID.allCases.map(\.id).joined(separator: ", ") }

    public var description: String {
        switch self {
        case .unknownID(let text):
            "unknown parameter '\(text)' (valid ids: \(Self.validIDs))"
        case .notAnAssignment(let text):
            "expected ID=VALUE, got '\(text)' (valid ids: \(Self.validIDs))"
        case .invalidValue(let id, let text, let expected):
            "invalid \(id) value '\(text)': expected \(expected)"
        case .outOfRange(let id, let text, let range):
            "\(id) value '\(text)' is out of range (\(range))"
        }
    }
}
