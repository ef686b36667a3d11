import TextFormats
import Parameters

/// Converts preset documents written in older formats to the current one, a step at a time,
/// before they are validated.
///
/// Format history:
/// - **0** — the first preset files: no `formatVersion` field, the values under
///   `"parameters"`, and the resonance under the id `q`.
/// - **1** — `formatVersion`, values under `"values"` keyed by the parameter table's ids,
///   optional `author`, `comment` and the reserved `midi` field.
///
/// Adding format 2 means appending one step to ``steps`` and raising
/// ``Preset/formatVersion``; every older file then migrates through the whole chain.
public enum PresetMigration {
    /// `steps[v]` turns the members of a format-`v` document into format `v + 1`.
    static let steps: [@Sendable ([JSONMember]) -> [JSONMember]] = [fromFormat0]

    /// The members of a format-`version` document converted to ``Preset/formatVersion``.
    public static func migrate(_ members: [JSONMember], from version: Int) -> [JSONMember] {
        precondition(steps.count == Preset.formatVersion, "one migration step per older format")
        var members = members
        for step in steps[max(version, 0)...] { members = step(members) }
        return members
    }

    /// 0 → 1: `parameters` becomes `values`, and the id `q` becomes `resonance`.
    private static func fromFormat0(_ members: [JSONMember]) -> [JSONMember] {
        let hasValues = members.contains { $0.key == "values" }
        var out = [JSONMember("formatVersion", .number("1"))]
        for member in members where member.key != "formatVersion" {
            guard member.key == "parameters", !hasValues else {
                out.append(member)
                continue
            }
            var value = member.value
            if case .object(let parameters) = value {
                value = .object(parameters.map { $0.key.lowercased() == "q" ? JSONMember("resonance", $0.value) : $0 })
            }
            out.append(JSONMember("values", value))
        }
        return out
    }
}
