import TextFormats

/// A saved state as JSON — the one form presets, session files and an isolated slot's request
/// share: `{"folder": PATH, "files": [NAME…]}`, `{"preset": URI}`, or a chain's
/// `{"slots": {"NAME": STATE, …}}`.
extension SavedState {
    /// The state as a JSON object.
    public var json: JSONValue {
        switch self {
        case .folder(let path, let files):
            .object([JSONMember("folder", .string(path)), JSONMember("files", .array(files.map { .string($0) }))])
        case .preset(let uri):
            .object([JSONMember("preset", .string(uri))])
        case .slots(let states):
            .object([JSONMember("slots", .object(states.keys.sorted().map { JSONMember($0, states[$0]!.json) }))])
        }
    }

    /// The state `value` describes.
    ///
    /// - Parameter field: the value's name in the document (`state`), for the error.
    /// - Throws: a ``SavedStateJSONError`` naming the field that is wrong (a file name that
    ///   leaves its folder included).
    public init(json value: JSONValue, field: String = "state") throws(SavedStateJSONError) {
        func wrong(_ field: String, _ expected: String, _ found: JSONValue) -> SavedStateJSONError {
            SavedStateJSONError(field: field, expected: expected, found: found.kindDescription)
        }
        guard case .object = value else { throw wrong(field, "an object with a folder, a preset or slots", value) }
        if let uri = value.member("preset") {
            guard case .string(let text) = uri, !text.isEmpty else { throw wrong(field + ".preset", "a URI", uri) }
            self = .preset(uri: text)
            return
        }
        if let slots = value.member("slots") {
            guard case .object(let members) = slots else { throw wrong(field + ".slots", "an object of slot states", slots) }
            var states: [String: SavedState] = [:]
            for member in members {
                guard case .object = member.value, member.value.member("slots") == nil else {
                    throw wrong(field + ".slots." + member.key, "a slot's state (a folder or a preset)", member.value)
                }
                states[member.key] = try SavedState(json: member.value, field: field + ".slots." + member.key)
            }
            self = .slots(states)
            return
        }
        guard let folder = value.member("folder") else { throw SavedStateJSONError(field: field + ".folder", expected: nil, found: nil) }
        guard case .string(let path) = folder, !path.isEmpty else { throw wrong(field + ".folder", "a folder's path", folder) }
        var files: [String] = []
        switch value.member("files") {
        case nil, .null?: break
        case .array(let elements)?:
            for (i, element) in elements.enumerated() {
                guard case .string(let name) = element, !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                    throw wrong(field + ".files[\(i)]", "a file name inside the folder", element)
                }
                files.append(name)
            }
        case let other?: throw wrong(field + ".files", "an array of file names", other)
        }
        self = .folder(path: path, files: files)
    }
}

/// A saved state's JSON that is not one: the field, what it should be and what it is (both
/// nil for a field that is missing).
public struct SavedStateJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let expected: String?
    public let found: String?

    public var description: String {
        guard let expected, let found else { return "'\(field)' is missing" }
        return "'\(field)' should be \(expected), not \(found)"
    }
}
