/// Why a parameter id or value typed by a person was refused. Each message names what was
/// typed and what would have been accepted, so it can be printed as one line on stderr.
public enum ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownID(String, valid: [String])
    case notAnAssignment(String, valid: [String])
    case invalidValue(id: String, text: String, expected: String)
    case outOfRange(id: String, text: String, range: String)
    /// A table was built with two rows of the same id.
    case duplicateID(String)

    public var description: String {
        switch self {
        case .unknownID(let text, let valid):
            "unknown parameter '\(text)' (valid ids: \(valid.joined(separator: ", ")))"
        case .notAnAssignment(let text, let valid):
            "expected ID=VALUE, got '\(text)' (valid ids: \(valid.joined(separator: ", ")))"
        case .invalidValue(let id, let text, let expected):
            "invalid \(id) value '\(text)': expected \(expected)"
        case .outOfRange(let id, let text, let range):
            "\(id) value '\(text)' is out of range (\(range))"
        case .duplicateID(let id):
            "two parameters share the id '\(id)'"
        }
    }
}
