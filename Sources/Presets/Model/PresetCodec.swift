import TextFormats
import Parameters

/// Reads and writes preset files: JSON text ↔ ``Preset``, with every rule of the format.
///
/// Reading is forgiving where nothing is lost and strict where guessing would be: an unknown
/// parameter or field is ignored with a warning, a missing parameter takes its table default,
/// an out-of-range value is clamped with a warning; malformed JSON, a value that is not a
/// finite number, and a format newer than this release are errors. Older formats are migrated
/// (``PresetMigration``).
///
/// ```swift
/// let (preset, warnings) = try PresetCodec.decode(Array(text.utf8), source: path)
/// for warning in warnings { printToStderr("warning: \(warning)") }
/// ```
public enum PresetCodec {
    /// Files larger than this are refused before parsing: no real preset comes close.
    public static let maximumFileSize = 1 << 20

    /// The top-level fields of the current format, in the order they are written.
    static let knownFields: Set<String> = ["formatVersion", "name", "processor", "author", "comment", "values", "midi", "state", "isolate"]

    // MARK: Reading

    /// Reads a preset from the bytes of a file.
    ///
    /// - Parameter source: names the file in errors and warnings (a path, or
    ///   `factory preset Dark.json`).
    /// - Returns: the preset, with a value for every parameter, and the warnings to show.
    /// - Throws: a ``PresetError`` naming `source`.
    public static func decode(
        _ bytes: [UInt8], source: String, scope: PresetScope = .builtIn
    ) throws(PresetError) -> (preset: Preset, warnings: [PresetWarning]) {
        func fail(_ problem: PresetError.Problem) -> PresetError { PresetError(problem, source: source) }
        guard bytes.count <= maximumFileSize else { throw fail(.tooLarge(limit: maximumFileSize)) }

        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw fail(.malformedJSON(error)) }
        guard case .object(var members) = document else { throw fail(.notAnObject(found: document.kindDescription)) }

        var warnings: [PresetWarning] = []
        let version = try formatVersion(of: document, source: source)
        if version < Preset.formatVersion {
            members = PresetMigration.migrate(members, from: version)
            warnings.append(PresetWarning(.migrated(from: version, to: Preset.formatVersion), source: source))
        }
        let object = JSONValue.object(members)
        for member in members where !knownFields.contains(member.key) {
            warnings.append(PresetWarning(.unknownField(member.key), source: source))
        }

        guard let nameValue = object.member("name") else { throw fail(.missingField("name")) }
        guard case .string(let name) = nameValue else {
            throw fail(.wrongType(field: "name", expected: "a string", found: nameValue.kindDescription))
        }
        do { try PresetName.validate(name) } catch { throw PresetError(error.problem, source: source) }

        let processor = try optionalString("processor", in: object, source: source) ?? LowpassGain.identifier
        guard processor == scope.processor else {
            throw fail(.otherProcessor(found: processor, expected: scope.processor))
        }
        var preset = Preset(
            name: name,
            author: try optionalString("author", in: object, source: source),
            comment: try optionalString("comment", in: object, source: source),
            values: ParameterValues(table: scope.table), processor: processor)
        preset.values = try values(in: object, table: scope.table, source: source, warnings: &warnings)
        if let midi = object.member("midi"), midi != .null {
            try requireFinite(midi, field: "midi", source: source)
            preset.midi = midi
        }
        if let state = object.member("state"), state != .null {
            preset.state = try savedState(state, source: source)
        }
        preset.isolate = try optionalString("isolate", in: object, source: source)
        return (preset, warnings)
    }

    /// The format version a document declares; a document without one is format 0.
    private static func formatVersion(of document: JSONValue, source: String) throws(PresetError) -> Int {
        guard let field = document.member("formatVersion") else { return 0 }
        let text: String
        switch field {
        case .number(let literal): text = literal
        case .string(let string): text = JSONWriter.quoted(string)
        default: text = field.kindDescription
        }
        guard let value = field.doubleValue, value.isFinite, value >= 0, value == value.rounded(), value < 1e9 else {
            throw PresetError(.invalidFormatVersion(text), source: source)
        }
        let version = Int(value)
        guard version <= Preset.formatVersion else {
            throw PresetError(.newerFormat(found: version, newestKnown: Preset.formatVersion), source: source)
        }
        return version
    }

    private static func optionalString(_ field: String, in object: JSONValue, source: String) throws(PresetError) -> String? {
        switch object.member(field) {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw PresetError(.wrongType(field: field, expected: "a string", found: other.kindDescription), source: source)
        }
    }

    /// The `values` object read against the parameter table.
    private static func values(
        in object: JSONValue, table: ParameterTable, source: String, warnings: inout [PresetWarning]
    ) throws(PresetError) -> ParameterValues {
        guard let field = object.member("values") else { throw PresetError(.missingField("values"), source: source) }
        guard case .object(let members) = field else {
            throw PresetError(.wrongType(field: "values", expected: "an object of parameter values", found: field.kindDescription), source: source)
        }
        var values = ParameterValues(table: table)
        var seen: Set<ParameterIndex> = []
        for member in members {
            guard let id = table.find(member.key) else {
                warnings.append(PresetWarning(.unknownParameter(member.key, valid: table.textIDs), source: source))
                continue
            }
            guard seen.insert(id).inserted else { throw PresetError(.duplicateParameter(table[id].id), source: source) }
            let fieldName = "values.\(member.key)"
            guard case .number(let text) = member.value, let number = member.value.doubleValue else {
                throw PresetError(.wrongType(field: fieldName, expected: "a number", found: member.value.kindDescription), source: source)
            }
            guard number.isFinite else { throw PresetError(.notFinite(field: fieldName, text: text), source: source) }
            values[id] = number
            if values[id] != number {
                warnings.append(PresetWarning(.clamped(table[id], written: text, clampedTo: values[id]), source: source))
            }
        }
        return values
    }

    /// The `state` object (``SavedState``'s JSON): a folder beside the preset, a preset the
    /// processor ships, or a chain's slots' states.
    private static func savedState(_ value: JSONValue, source: String) throws(PresetError) -> SavedState {
        let state: SavedState
        do {
            state = try SavedState(json: value)
        } catch {
            guard let expected = error.expected, let found = error.found else { throw PresetError(.missingField(error.field), source: source) }
            throw PresetError(.wrongType(field: error.field, expected: expected, found: found), source: source)
        }
        try requireOwnFolders(state, field: "state", source: source)
        return state
    }

    /// Refuses a state whose folder is anywhere but beside the preset (see ``StateFolderPath``):
    /// loading it would read, and deleting the preset remove, what is not the preset's.
    private static func requireOwnFolders(_ state: SavedState, field: String, source: String) throws(PresetError) {
        switch state {
        case .folder(let path, _):
            guard let problem = StateFolderPath.problem(path) else { return }
            throw PresetError(.wrongType(field: field + ".folder", expected: "a folder NAME\(StateFolderPath.suffix) beside the preset",
                                         found: "\(JSONWriter.quoted(path)) (\(problem))"), source: source)
        case .preset:
            return
        case .slots(let states):
            for name in states.keys.sorted() { try requireOwnFolders(states[name]!, field: field + ".slots." + name, source: source) }
        }
    }

    /// Refuses a non-finite number anywhere in `value`: it could not be written back as JSON.
    private static func requireFinite(_ value: JSONValue, field: String, source: String) throws(PresetError) {
        switch value {
        case .number(let text):
            guard value.doubleValue?.isFinite == true else { throw PresetError(.notFinite(field: field, text: text), source: source) }
        case .array(let elements):
            for (i, element) in elements.enumerated() { try requireFinite(element, field: "\(field)[\(i)]", source: source) }
        case .object(let members):
            for member in members { try requireFinite(member.value, field: "\(field).\(member.key)", source: source) }
        case .null, .bool, .string:
            break
        }
    }

    // MARK: Writing

    /// The preset as a file's text in the current format: every parameter written out, in
    /// table order, so the file means the same whatever the table defaults become.
    public static func encode(_ preset: Preset) -> String {
        JSONWriter.text(of: document(preset), pretty: true)
    }

    /// The preset as a JSON tree in the current format.
    public static func document(_ preset: Preset) -> JSONValue {
        var members = [JSONMember("formatVersion", .number(Double(Preset.formatVersion))), JSONMember("name", .string(preset.name))]
        if preset.processor != LowpassGain.identifier { members.append(JSONMember("processor", .string(preset.processor))) }
        if let author = preset.author { members.append(JSONMember("author", .string(author))) }
        if let comment = preset.comment { members.append(JSONMember("comment", .string(comment))) }
        members.append(JSONMember("values", valuesObject(preset.values)))
        if let midi = preset.midi { members.append(JSONMember("midi", midi)) }
        if let state = preset.state { members.append(JSONMember("state", state.json)) }
        if let isolate = preset.isolate { members.append(JSONMember("isolate", .string(isolate))) }
        return .object(members)
    }

    /// The values as a JSON object keyed by parameter id, in table order.
    public static func valuesObject(_ values: ParameterValues) -> JSONValue {
        .object(values.ordered.map { JSONMember(values.table[$0.id].id, .number($0.value)) })
    }
}
