import TextFormats
import Parameters

/// The OSCQuery description of Detent's OSC addresses (github.com/Vidvox/OSCQueryProposal):
/// the tree `/detent/param/<id>` with each parameter's type, range, unit, clip mode and
/// current value, and `HOST_INFO` naming the OSC port that takes them. OSC apps (Open Stage
/// Control, TouchOSC, Chataigne, ossia score) read it and then talk to `--osc`'s UDP port;
/// nothing here sets a value. Pure.
package enum OSCQueryNamespace {
    /// Where the parameters live in the OSC address space (`OSCRouter`'s scheme).
    package static let parameterPath = "/detent/param"

    /// `GET /?HOST_INFO`. `oscPort` is nil when Detent listens for no OSC (`--osc` not given):
    /// then the tree is there to read but nothing takes the messages.
    package static func hostInfo(name: String, oscPort: Int?, oscAddress: String?) -> JSONValue {
        var members: [JSONMember] = [.init("NAME", .string(name))]
        if let oscPort {
            if let oscAddress { members.append(.init("OSC_IP", .string(oscAddress))) }
            members.append(.init("OSC_PORT", .number(oscPort)))
            members.append(.init("OSC_TRANSPORT", .string("UDP")))
        }
        members.append(.init("EXTENSIONS", .object(
            ["ACCESS", "VALUE", "RANGE", "DESCRIPTION", "UNIT", "CLIPMODE", "TYPE", "LISTEN", "PATH_CHANGED"].map { JSONMember($0, .bool(true) ) }
            + ["TAGS", "CRITICAL", "EXTENDED_TYPE", "HTML"].map { JSONMember($0, .bool(false)) })))
        return .object(members)
    }

    /// Where each chain slot's state is read (`/detent/slot/drive/state`: `on`, `bypassed`, or
    /// `down` for an isolated slot that crashed or hung).
    package static let slotPath = "/detent/slot"

    /// The node at `path` (`/`, `/detent`, `/detent/param`, `/detent/param/cutoff`,
    /// `/detent/slot/drive/state`), or nil when there is none (answered 404). `slots` are the
    /// chain's slots by name with their state, in order.
    package static func node(at path: String, table: ParameterTable, targets: [ParameterIndex: Double],
                            slots: [(name: String, state: String)] = []) -> JSONValue? {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        func parameter(_ index: ParameterIndex) -> JSONValue {
            let spec = table[index]
            let value = targets[index] ?? spec.defaultValue
            var range: [JSONMember] = [.init("MIN", .number(spec.range.lowerBound)), .init("MAX", .number(spec.range.upperBound))]
            if let steps = spec.steps, spec.kind != .integer || steps.count <= 128 {
                range.append(.init("VALS", .array(steps.map { .number($0) })))
            }
            var members: [JSONMember] = [
                .init("FULL_PATH", .string(parameterPath + "/" + spec.id)),
                .init("TYPE", .string("f")),
                .init("ACCESS", .number(3)),
                .init("VALUE", .array([.number(value)])),
                .init("RANGE", .array([.object(range)])),
                .init("CLIPMODE", .array([.string("both")])),
                .init("DESCRIPTION", .string(spec.name)),
            ]
            if let unit = unit(spec.unit) { members.append(.init("UNIT", .array([.string(unit)]))) }
            return .object(members)
        }
        func container(_ fullPath: String, _ contents: [JSONMember]) -> JSONValue {
            .object([.init("FULL_PATH", .string(fullPath)), .init("ACCESS", .number(0)), .init("CONTENTS", .object(contents))])
        }
        let parameters = { container(parameterPath, table.indices.map { JSONMember(table[$0].id, parameter($0)) }) }
        func state(_ slot: (name: String, state: String)) -> JSONValue {
            .object([.init("FULL_PATH", .string("\(slotPath)/\(slot.name)/state")), .init("TYPE", .string("s")), .init("ACCESS", .number(1)),
                     .init("VALUE", .array([.string(slot.state)])), .init("DESCRIPTION", .string("\(slot.name): on, bypassed or down"))])
        }
        let slotNodes = {
            container(slotPath, slots.map { slot in JSONMember(slot.name, container("\(slotPath)/\(slot.name)", [.init("state", state(slot))])) })
        }
        let detent = { container("/detent", [.init("param", parameters())] + (slots.isEmpty ? [] : [.init("slot", slotNodes())])) }
        switch trimmed {
        case "/": return container("/", [.init("detent", detent())])
        case "/detent": return detent()
        case parameterPath: return parameters()
        case slotPath where !slots.isEmpty: return slotNodes()
        case _ where trimmed.hasPrefix(slotPath + "/"):
            let rest = trimmed.dropFirst(slotPath.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            guard let slot = slots.first(where: { $0.name == rest.first.map(String.init) }) else { return nil }
            if rest.count == 1 { return container("\(slotPath)/\(slot.name)", [.init("state", state(slot))]) }
            return rest.count == 2 && rest[1] == "state" ? state(slot) : nil
        default:
            guard trimmed.hasPrefix(parameterPath + "/"), let index = table.find(String(trimmed.dropFirst(parameterPath.count + 1))) else {
                return nil
            }
            return parameter(index)
        }
    }

    /// The OSC message setting `path` to `value` (`,f`), as an OSC client sends it and as
    /// `LISTEN` pushes it: the address and the type tags, each a NUL-terminated string padded
    /// to four bytes, then the float, big-endian.
    package static func message(_ path: String, _ value: Float) -> [UInt8] {
        func padded(_ text: String) -> [UInt8] {
            var bytes = Array(text.utf8) + [0]
            while bytes.count % 4 != 0 { bytes.append(0) }
            return bytes
        }
        let bits = value.bitPattern.bigEndian
        return padded(path) + padded(",f") + withUnsafeBytes(of: bits, Array.init)
    }

    /// `GET PATH?ATTRIBUTE`: one attribute of a node (`{"VALUE":[800]}`), or nil when the node
    /// or the attribute is not there.
    package static func attribute(_ name: String, of node: JSONValue) -> JSONValue? {
        node.member(name).map { .object([.init(name, $0)]) }
    }

    /// The unit in the proposal's list (its units.md, from Jamoma's dataspace), when it has one.
    static func unit(_ unit: ParameterUnit) -> String? {
        switch unit {
        case .hertz: "time.hz"
        case .decibels: "gain.db"
        case .milliseconds: "time.ms"
        case .seconds: "time.second"
        case .quality, .none, .percent, .semitones: nil
        }
    }
}
