import Control
import Parameters
import TextFormats

/// A rig edit as the page and the bridge write it: one JSON object per typed `chain` edit.
///
/// | `action` | members | typed as |
/// |---|---|---|
/// | `add` | `plugin`, `name`?, `position`? | `chain add [NAME=]PLUGIN [at N]` |
/// | `insert` | `plugin`, `name`?, `from`, `to` | `chain add [NAME=]PLUGIN at FROM>TO` |
/// | `remove` | `slot` | `chain remove SLOT` |
/// | `move` | `slot`, `position` | `chain move SLOT N` |
/// | `rename` | `slot`, `name` | `chain rename SLOT NAME` |
/// | `connect`, `disconnect` | `from`, `to` | `chain connect FROM TO` |
///
/// Names and plug-ins are checked where the typed ones are, by the edit itself; here only the
/// shape, and lengths no rig needs (a name of 100 bytes, a reference of 1,000).
extension ChainRequest {
    /// The request `json` holds, or why it is not one.
    package static func read(_ json: JSONValue) -> Result<ChainRequest, ChainEditError> {
        guard case .string(let action)? = json.member("action") else { return .failure(ChainEditError("chain: expects an action")) }
        func text(_ key: String, limit: Int = 100) -> String? {
            guard case .string(let value)? = json.member(key) else { return nil }
            let trimmed = value.trimmedWhitespace
            return trimmed.isEmpty || trimmed.utf8.count > limit ? nil : trimmed
        }
        func position() -> Int? {
            guard let value = json.member("position")?.doubleValue, value == value.rounded(), value >= 1, value <= 10_000 else { return nil }
            return Int(value)
        }
        let missing = ChainEditError("chain \(action): expects " + (Self.members[action] ?? "a known action (\(Self.members.keys.sorted().joined(separator: ", ")))"))
        switch action {
        case "add":
            guard let plugin = text("plugin", limit: 1000) else { return .failure(missing) }
            if json.member("position") != nil && json.member("position") != .null && position() == nil { return .failure(missing) }
            return .success(.add(reference: plugin, name: text("name"), position: position()))
        case "insert":
            guard let plugin = text("plugin", limit: 1000), let from = text("from"), let to = text("to") else { return .failure(missing) }
            return .success(.insert(reference: plugin, name: text("name"), from: from, to: to))
        case "remove":
            guard let slot = text("slot") else { return .failure(missing) }
            return .success(.remove(slot))
        case "move":
            guard let slot = text("slot"), let position = position() else { return .failure(missing) }
            return .success(.move(slot, to: position))
        case "rename":
            guard let slot = text("slot"), let name = text("name") else { return .failure(missing) }
            return .success(.rename(slot, to: name))
        case "connect", "disconnect":
            guard let from = text("from"), let to = text("to") else { return .failure(missing) }
            return .success(action == "connect" ? .connect(from: from, to: to) : .disconnect(from: from, to: to))
        default:
            return .failure(missing)
        }
    }

    /// What each action takes, as a refusal says it.
    private static let members = [
        "add": "a plugin (and a name, a position)", "insert": "a plugin, from and to (and a name)", "remove": "a slot",
        "move": "a slot and a position (1, 2, 3…)", "rename": "a slot and a name", "connect": "from and to",
        "disconnect": "from and to",
    ]

    /// The object ``read(_:)`` reads.
    package var json: JSONValue {
        func object(_ action: String, _ members: [(String, String?)], position: Int? = nil) -> JSONValue {
            .object([.init("action", .string(action))] + members.compactMap { key, value in value.map { JSONMember(key, .string($0)) } }
                + (position.map { [JSONMember("position", .number($0))] } ?? []))
        }
        switch self {
        case .add(let reference, let name, let position): return object("add", [("plugin", reference), ("name", name)], position: position)
        case .insert(let reference, let name, let from, let to):
            return object("insert", [("plugin", reference), ("name", name), ("from", from), ("to", to)])
        case .remove(let slot): return object("remove", [("slot", slot)])
        case .move(let slot, let position): return object("move", [("slot", slot)], position: position)
        case .rename(let slot, let name): return object("rename", [("slot", slot), ("name", name)])
        case .connect(let from, let to): return object("connect", [("from", from), ("to", to)])
        case .disconnect(let from, let to): return object("disconnect", [("from", from), ("to", to)])
        }
    }
}
