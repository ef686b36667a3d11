import TextFormats
import Parameters

/// The text `detent preset list` and `detent preset show` print, kept here (pure and tested)
/// so the command only wires options to the store.
///
/// Values are formatted by the parameter table, names are made safe to print.
public enum PresetText {
    /// `list`: one row per preset with its source and values; a broken file shows its reason.
    ///
    /// ```
    /// NAME     SOURCE   CUTOFF    RESONANCE  GAIN
    /// Dark     factory  2.50 kHz  0.71       0.0 dB
    /// Mine     user     broken: line 3, column 1: expected a value, found '}'
    /// ```
    public static func listTable(_ rows: [PresetListing], table: ParameterTable, ascii: Bool = false) -> String {
        let header = ["NAME", "SOURCE"] + table.specs.map { $0.name.uppercased() }
        let body = rows.map { row -> [String] in
            let lead = [PresetName.printable(row.name), row.origin.label]
            switch row.status {
            case .valid(let loaded):
                return lead + loaded.values.ordered.map { table[$0.id].format($0.value, ascii: ascii) }
            case .broken(let error):
                return lead + ["broken: " + PresetName.printable(error.problem.description)]
            }
        }
        return TextTable.render([header] + body)
    }

    /// `list --json`: one compact JSON object per preset (JSON Lines), for scripts.
    ///
    /// Fields: `name`, `source` (`factory` or `user`), `overridesFactory`, `path` (user
    /// files), `status` (`valid` or `broken`), then `author`, `comment` and `values` for a
    /// valid preset or `error` for a broken one.
    public static func listJSONLine(_ row: PresetListing) -> String {
        var members = [JSONMember("name", .string(row.name))]
        switch row.origin {
        case .factory:
            members += [JSONMember("source", .string("factory")), JSONMember("overridesFactory", .bool(false))]
        case .user(let path, let overrides):
            members += [JSONMember("source", .string("user")), JSONMember("overridesFactory", .bool(overrides)),
                        JSONMember("path", .string(path))]
        case .file(let path):
            members += [JSONMember("source", .string("file")), JSONMember("overridesFactory", .bool(false)),
                        JSONMember("path", .string(path))]
        case .tableDefaults:
            members += [JSONMember("source", .string("table")), JSONMember("overridesFactory", .bool(false))]
        }
        switch row.status {
        case .valid(let loaded):
            members.append(JSONMember("status", .string("valid")))
            if let author = loaded.preset.author { members.append(JSONMember("author", .string(author))) }
            if let comment = loaded.preset.comment { members.append(JSONMember("comment", .string(comment))) }
            members.append(JSONMember("values", PresetCodec.valuesObject(loaded.values)))
        case .broken(let error):
            members += [JSONMember("status", .string("broken")), JSONMember("error", .string(error.problem.description))]
        }
        return JSONWriter.text(of: .object(members), pretty: false)
    }

    /// `show`: the preset's name, source, author, comment and saved state, then its values.
    ///
    /// ```
    /// Name:     Dark
    /// Source:   factory (Dark.json)
    /// Author:   Detent
    /// Comment:  Takes the air and the edge off …
    ///
    /// ID         NAME       VALUE
    /// cutoff     Cutoff     2.50 kHz
    /// ```
    public static func show(_ loaded: LoadedPreset, ascii: Bool = false) -> String {
        var source = loaded.origin.label
        switch loaded.origin {
        case .factory(let fileName): source += " (\(fileName))"
        case .user(let path, _), .file(let path): source += " (\(path))"
        case .tableDefaults: break
        }
        var header = [["Name:", loaded.preset.name], ["Source:", source]]
        if let author = loaded.preset.author { header.append(["Author:", author]) }
        if let comment = loaded.preset.comment { header.append(["Comment:", comment]) }
        func describe(_ state: SavedState) -> String {
            switch state {
            case .folder(let path, let files): path + (files.isEmpty ? "" : " (" + files.joined(separator: ", ") + ")")
            case .preset(let uri): uri
            case .slots(let states): states.keys.sorted().map { "\($0): " + describe(states[$0]!) }.joined(separator: "; ")
            }
        }
        if let state = loaded.preset.state { header.append(["State:", describe(state)]) }
        let table = loaded.values.table
        let values = [["ID", "NAME", "VALUE"]] + loaded.values.ordered.map {
            [table[$0.id].id, table[$0.id].name, table[$0.id].format($0.value, ascii: ascii)]
        }
        // Names, comments and paths are free text: show any control character, never send it.
        return TextTable.render(header.map { $0.map(PresetName.printable) }) + "\n" + TextTable.render(values)
    }
}
