import TextFormats
import AudioEngine
import Platform
import Presets
import PluginFormats
import Parameters

/// A graph file (`--graph FILE`): named slots, each a processor with starting values, and
/// the connections between them, the graph's inputs and its output.
///
/// ```json
/// {"slots": {"lo": {"plugin": "builtin", "values": {"cutoff": 300, "gain": -6}},
///            "comp": {"plugin": "urn:zamaudio:ZamComp", "values": {"sidech": 1}}},
///  "connections": [["input", "lo"], ["lo", "comp"], ["key", "comp:sidechain"], ["comp", "output"]]}
/// ```
package struct GraphFile: Sendable {
    package struct Slot: Sendable {
        package var name: String
        package var reference: String
        /// `ID` and its value as text (a number's as written), as `--set SLOT.ID=VALUE` takes it.
        package var values: [(id: String, value: String)]
    }

    package var path: String
    package var slots: [Slot]
    package var connections: [(from: String, to: String)]

    /// Reads and checks the file's form (not yet its plug-ins or connections).
    ///
    /// - Throws: ``PluginError/chainFile(path:reason:)`` naming what is wrong.
    package static func read(_ path: String) throws(PluginError) -> GraphFile {
        func problem(_ reason: String) -> PluginError { .chainFile(path: path, reason: reason) }
        // A graph is only ever a file: a FIFO is refused, not waited on for a writer.
        let bytes: [UInt8]
        do { bytes = try BoundedFileReader.readRegularFile(path: path, limit: PresetCodec.maximumFileSize) } catch {
            throw problem(error.description)
        }
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw problem("\(error)") }
        guard case .object(let members)? = document.member("slots") else {
            throw problem(document.member("slots").map { "'slots' is \($0.kindDescription), not an object" } ?? "no 'slots' object")
        }
        var slots: [Slot] = []
        for member in members {
            guard Processor.isSlotName(member.key) else { throw problem("'\(Self.shown(member.key))' cannot name a slot: use letters, digits, _ and -") }
            guard ![GraphRouting.mainInput, GraphRouting.outputName].contains(member.key.lowercased()) else {
                throw problem("'\(member.key)' names the graph's \(member.key.lowercased()), not a slot")
            }
            guard case .string(let reference)? = member.value.member("plugin") else {
                throw problem("slot '\(member.key)' has no 'plugin' string")
            }
            var values: [(id: String, value: String)] = []
            switch member.value.member("values") {
            case nil: break
            case .object(let pairs)?:
                for pair in pairs {
                    switch pair.value {
                    case .number(let text), .string(let text): values.append((pair.key, text))
                    case .bool(let on): values.append((pair.key, on ? "on" : "off"))
                    default: throw problem("slot '\(member.key)': value '\(Self.shown(pair.key))' is \(pair.value.kindDescription)")
                    }
                }
            case let other?: throw problem("slot '\(member.key)': 'values' is \(other.kindDescription), not an object")
            }
            slots.append(Slot(name: member.key, reference: reference, values: values))
        }
        guard !slots.isEmpty else { throw problem("'slots' is empty") }
        guard case .array(let list)? = document.member("connections") else {
            throw problem(document.member("connections").map { "'connections' is \($0.kindDescription), not an array" } ?? "no 'connections' array")
        }
        var connections: [(from: String, to: String)] = []
        for (n, item) in list.enumerated() {
            guard case .array(let ends) = item, ends.count == 2, case .string(let from) = ends[0], case .string(let to) = ends[1] else {
                throw problem("connection \(n + 1) is not [\"FROM\", \"TO\"]")
            }
            connections.append((from, to))
        }
        return GraphFile(path: path, slots: slots, connections: connections)
    }

    /// A name read from the file as a message shows it: escaped, and not too long for a line.
    private static func shown(_ name: String) -> String { TerminalText.printable(name, limit: 60) }

    /// True when the file at `path` is a graph file rather than a preset (it has `connections`).
    package static func isGraph(_ path: String) -> Bool {
        guard let bytes = try? BoundedFileReader.readRegularFile(path: path, limit: PresetCodec.maximumFileSize),
              let document = try? JSONParser.parse(bytes) else { return false }
        return document.member("connections") != nil && document.member("slots") != nil
    }

    /// The graph as a processor: each slot's plug-in found, the connections checked.
    ///
    /// - Throws: ``PluginError`` for a plug-in not found, or (``PluginError/chainFile(path:reason:)``)
    ///   a connection to nothing, a cycle, a slot with no path to the output.
    package func processor() throws(PluginError) -> Processor {
        var parts: [(name: String, processor: Processor)] = []
        for slot in slots { parts.append((slot.name, try ProcessorReference.processor(slot.reference))) }
        let graph = try Self.graph(parts, connections: connections, path: path)
        // The slots' values are checked here, so that a wrong one is told as the file's.
        for assignment in assignments {
            do { _ = try graph.table.parseAssignment(assignment) } catch {
                throw .chainFile(path: path, reason: TerminalText.printable("\(error)"))
            }
        }
        return graph
    }

    /// `parts` wired by `connections` (`path`: where they were read, for messages).
    package static func graph(_ parts: [(name: String, processor: Processor)], connections: [(from: String, to: String)],
                              path: String) throws(PluginError) -> Processor {
        do {
            return try Processor.graph(parts, connections: connections)
        } catch let error as GraphError {
            // The file's names, as read, may hold anything: the line stays one line.
            throw .chainFile(path: path, reason: TerminalText.printable(error.description))
        } catch {
            throw .chain(reason: "\(error)")
        }
    }

    /// The slots' values as `--set` assignments (`lo.cutoff=300`), before the command's own.
    package var assignments: [String] {
        slots.flatMap { slot in slot.values.map { "\(slot.name).\($0.id)=\($0.value)" } }
    }
}
