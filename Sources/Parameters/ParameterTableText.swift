import TextFormats

/// A parameter table as text, for `detent params` and help screens.
public enum ParameterTableText {
    /// An aligned plain-text table with a header row, one line per parameter. A `KIND` column
    /// appears when some row is stepped (toggle, integer, enumeration) or there are `files`,
    /// which follow the table's rows as kind `file`, their range "a file", their default the
    /// file chosen (or `-`).
    public static func table(_ table: ParameterTable, files: [FileParameter] = [], ascii: Bool = false) -> String {
        let stepped = table.specs.contains { $0.kind.isStepped } || !files.isEmpty
        var header = ["ID", "NAME", "UNIT", "RANGE", "DEFAULT", "TAPER", "SMOOTHING", "MIDI CC"]
        if stepped { header.insert("KIND", at: 3) }
        let rows = table.specs.map { s -> [String] in
            var row = [s.id, s.name, s.unit.symbol, range(s, ascii: ascii),
                       s.format(s.defaultValue, ascii: ascii), s.taper.rawValue, s.smoothing.rawValue,
                       s.midiController.map(String.init) ?? "-"]
            if stepped { row.insert(s.kind.name, at: 3) }
            return row
        }
        let fileRows = files.map { f in [f.id, f.name, "", "file", "a file", f.path ?? "-", "-", "-", "-"] }
        return TextTable.render([header] + rows + fileRows)
    }

    /// The range as read: `20.0 Hz … 20.0 kHz`; an enumeration lists its labels.
    static func range(_ s: ParameterSpec, ascii: Bool) -> String {
        if case .enumeration(let points) = s.kind { return points.map(\.label).joined(separator: " | ") }
        // The silent minimum is shown as its number too, so the range reads as a range.
        let low = s.minimumIsSilence ? s.unit.format(s.range.lowerBound, ascii: ascii) + " (silence)"
            : s.formatNumber(s.range.lowerBound, ascii: ascii)
        return "\(low) … \(s.formatNumber(s.range.upperBound, ascii: ascii))"
    }

    /// One parameter as a JSON value (one line with `JSONWriter`'s compact form).
    public static func json(_ s: ParameterSpec) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("id", .string(s.id)), JSONMember("name", .string(s.name)),
            JSONMember("unit", .string(s.unit.symbol)),
            JSONMember("min", .number(s.range.lowerBound)), JSONMember("max", .number(s.range.upperBound)),
            JSONMember("default", .number(s.defaultValue)),
            JSONMember("taper", .string(s.taper.rawValue)), JSONMember("smoothing", .string(s.smoothing.rawValue)),
            JSONMember("minimumIsSilence", .bool(s.minimumIsSilence)),
            JSONMember("midiController", s.midiController.map { .number(Double($0)) } ?? .null),
            JSONMember("kind", .string(s.kind.name)),
        ]
        if case .enumeration(let points) = s.kind {
            members.append(JSONMember("values", .array(points.map {
                .object([JSONMember("value", .number($0.value)), JSONMember("label", .string($0.label))])
            })))
        }
        return .object(members)
    }

    /// One parameter as a JSON object on one line.
    public static func jsonLine(_ s: ParameterSpec) -> String {
        JSONWriter.text(of: json(s), pretty: false)
    }

    /// A file parameter as a JSON object on one line: `id`, `name`, `kind` "file" and `path`
    /// (the file chosen, or null).
    public static func jsonLine(_ f: FileParameter) -> String {
        JSONWriter.text(of: .object([
            JSONMember("id", .string(f.id)), JSONMember("name", .string(f.name)),
            JSONMember("kind", .string("file")), JSONMember("path", f.path.map { .string($0) } ?? .null),
        ]), pretty: false)
    }
}
