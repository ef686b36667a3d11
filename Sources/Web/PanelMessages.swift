import TextFormats
import AudioEngine
import Control
import Parameters
import WebBridge

/// The WebSocket's language, both ways, as JSON text messages. Pure: the page's requests are
/// read and its answers written here, and every rule is tested without a socket.
///
/// From the page (`id` is a parameter's text id, as typed on the command line):
///
/// | message | what it does |
/// |---|---|
/// | `{"type":"position","id":"cutoff","position":0.5}` | a knob's normalised position 0…1, through the taper (drag, wheel) |
/// | `{"type":"value","id":"cutoff","value":800}` | a value in the parameter's unit (switches, lists) |
/// | `{"type":"text","id":"cutoff","text":"1.2k"}` | a typed value, read as the typed `set` reads it |
/// | `{"type":"reset","id":"cutoff"}` | back to the Default preset's value |
/// | `{"type":"preset","action":"load","name":"Warm"}` | loads a preset (`"save"`: saves the values as it) |
/// | `{"type":"learn","id":"cutoff"}` | MIDI learn: the next controller heard turns it (no `id`: stop) |
/// | `{"type":"restart","slot":"drive"}` | an isolated slot's process started afresh |
/// | `{"type":"chain","action":"add","plugin":"ZamComp",…}` | a rig edit, as ``ChainRequest/read(_:)`` reads it (trusted pages) |
/// | `{"type":"file","id":"conv.impulse","path":"/…/hall.wav"}` | a file parameter pointed at a file (trusted pages) |
/// | `{"type":"catalogue"}` | the plug-ins that may be added (trusted pages) |
///
/// To the page: `access` (first: whether it may change the rig, and why not), `layout`
/// (every section and parameter, the processor's outputs, a graph's connections and the file
/// parameters, sent on connecting and after every chain edit), `values` (the parameters that changed, each with
/// its position and text), `outputs` (the outputs' latest values, when they change),
/// `presets` (the names to offer, on connecting and after a save), `faults` (the isolated slots
/// that crashed or hung, by name, with what happened: on connecting and when they change),
/// `answer` (a rig edit's or a file's typed answer line), `catalogue` (the plug-ins, when
/// asked) and `error` (a request refused, in one line).
package enum PanelMessages {
    /// A request from the page.
    package enum Request: Equatable, Sendable {
        case position(ParameterIndex, Double)
        case value(ParameterIndex, Double)
        case reset(ParameterIndex)
        case presetLoad(String)
        case presetSave(String)
        /// MIDI learn for a parameter; nil stops it.
        case learn(ParameterIndex?)
        /// An isolated slot restarted, by name.
        case restart(String)
        /// A rig edit (it loads code: trusted pages only).
        case chain(ChainRequest)
        /// A file parameter pointed at a path (trusted pages only).
        case file(id: String, path: String)
        /// The plug-ins that may be added.
        case catalogue
    }

    /// The longest path a page may name, in bytes (Linux's PATH_MAX).
    static let maximumPath = 4096

    /// Reads one message from the page against `table`: a request, or why it is refused.
    /// A message that is not JSON, or not one of the shapes above, is `malformed` (the socket
    /// closes); a well-formed one the panel cannot honour (a typo in a typed value, an id
    /// from before a chain edit) is only answered with an error.
    package static func read(_ text: String, table: ParameterTable) -> Result<Request, Refusal> {
        guard let json = try? JSONParser.parse(Array(text.utf8)), case .string(let type)? = json.member("type") else {
            return .failure(.malformed("not a panel message"))
        }
        if type == "preset" {
            guard case .string(let action)? = json.member("action"), action == "load" || action == "save",
                  case .string(let name)? = json.member("name") else {
                return .failure(.malformed("preset: expects an action (load or save) and a name"))
            }
            let trimmed = name.trimmedWhitespace
            guard !trimmed.isEmpty else { return .failure(.refused("name the preset")) }
            return .success(action == "load" ? .presetLoad(trimmed) : .presetSave(trimmed))
        }
        if type == "chain" {
            switch ChainRequest.read(json) {
            case .success(let request): return .success(.chain(request))
            case .failure(let problem): return .failure(.malformed(problem.description))
            }
        }
        if type == "catalogue" { return .success(.catalogue) }
        if type == "file" {
            guard case .string(let id)? = json.member("id"), case .string(let path)? = json.member("path") else {
                return .failure(.malformed("file: expects an id and a path"))
            }
            let trimmed = path.trimmedWhitespace
            guard !trimmed.isEmpty else { return .failure(.refused("\(id): name a file")) }
            guard trimmed.utf8.count <= maximumPath, !trimmed.utf8.contains(0) else { return .failure(.refused("\(id): not a path")) }
            return .success(.file(id: id, path: trimmed))
        }
        if type == "restart" {
            guard case .string(let slot)? = json.member("slot"), !slot.isEmpty else { return .failure(.malformed("restart: expects a slot")) }
            return .success(.restart(slot))
        }
        if type == "learn" {
            guard let member = json.member("id") else { return .success(.learn(nil)) }
            guard case .string(let id) = member else { return .failure(.malformed("learn: expects an id")) }
            guard let index = table.find(id) else { return .failure(.refused("no parameter '\(id)'")) }
            return .success(.learn(index))
        }
        guard case .string(let id)? = json.member("id") else { return .failure(.malformed("not a panel message")) }
        guard let index = table.find(id) else { return .failure(.refused("no parameter '\(id)'")) }
        let spec = table[index]
        switch type {
        case "position":
            guard let position = json.member("position")?.doubleValue, position.isFinite else {
                return .failure(.malformed("position: expects a number"))
            }
            return .success(.position(index, min(max(position, 0), 1)))
        case "value":
            guard let value = json.member("value")?.doubleValue, value.isFinite else {
                return .failure(.malformed("value: expects a number"))
            }
            guard spec.range.contains(value) else {
                return .failure(.refused("\(id): \(spec.format(value)) is outside \(spec.format(spec.range.lowerBound)) … \(spec.format(spec.range.upperBound))"))
            }
            return .success(.value(index, spec.clamp(value)))
        case "text":
            guard case .string(let typed)? = json.member("text") else { return .failure(.malformed("text: expects a string")) }
            do {
                return .success(.value(index, try spec.parse(typed)))
            } catch {
                return .failure(.refused("\(error)"))
            }
        case "reset":
            return .success(.reset(index))
        default:
            return .failure(.malformed("unknown message type '\(type)'"))
        }
    }

    /// Why a message was not followed.
    package enum Refusal: Error, Equatable, Sendable {
        /// Not a panel message at all: the socket is closed.
        case malformed(String)
        /// A panel message that cannot be followed: answered with an `error` message.
        case refused(String)
    }

    /// `{"type":"layout",…}`: the title, and one section per chain slot (one untitled section
    /// for a single processor), each parameter with what the page draws it with.
    package static func layout(_ snapshot: WebSnapshot, title: String) -> String {
        let layout = snapshot.layout
        let table = layout.table
        func parameter(_ index: ParameterIndex) -> JSONValue {
            let spec = table[index]
            var members: [JSONMember] = [
                .init("id", .string(spec.id)), .init("name", .string(spec.name)),
                .init("kind", .string(spec.kind.name)), .init("unit", .string(spec.unit.symbol)),
                .init("min", .number(spec.range.lowerBound)), .init("max", .number(spec.range.upperBound)),
                .init("default", .number(spec.defaultValue)),
                .init("bipolar", .bool(spec.range.lowerBound < 0 && spec.range.upperBound > 0)),
            ]
            if case .enumeration(let points) = spec.kind {
                members.append(.init("options", .array(points.filter { spec.range.contains($0.value) }.map {
                    .object([.init("value", .number($0.value)), .init("label", .string($0.label))])
                })))
            }
            members.append(contentsOf: state(index, snapshot))
            return .object(members)
        }
        var sections: [JSONValue] = []
        if layout.sections.isEmpty {
            sections.append(.object([.init("name", .string("")), .init("bypass", .null),
                                     .init("parameters", .array(table.indices.map(parameter)))]))
        } else {
            for slot in layout.sections {
                sections.append(.object([
                    .init("name", .string(slot.name)), .init("plugin", .string(slot.plugin)),
                    .init("bypass", parameter(slot.bypass)),
                    .init("parameters", .array(slot.rows.map(parameter))),
                ]))
            }
        }
        let outputs: [JSONValue] = layout.outputs.map { output in
            .object([.init("id", .string(output.id)), .init("name", .string(output.name)), .init("unit", .string(output.unit)),
                     .init("min", output.range.map { .number($0.lowerBound) } ?? .null),
                     .init("max", output.range.map { .number($0.upperBound) } ?? .null)])
        }
        return JSONValue.object([
            .init("type", .string("layout")), .init("generation", .number(snapshot.generation)),
            .init("title", .string(title)), .init("sections", .array(sections)), .init("outputs", .array(outputs)),
            .init("connections", layout.connections.map { .array($0.map { .string($0) }) } ?? .null),
            .init("files", WebBridge.encode(layout.files)),
        ]).compactText
    }

    /// `{"type":"access","edit":true}`, or `false` with the `reason`: whether this page may
    /// change the rig and name files (the first message a page gets).
    package static func access(refusal: String?) -> String {
        JSONValue.object([.init("type", .string("access")), .init("edit", .bool(refusal == nil)),
                          .init("reason", refusal.map { .string($0) } ?? .null)]).compactText
    }

    /// `{"type":"answer","text":…}`: a rig edit's or a file's answer, the typed command's line.
    package static func answer(_ text: String) -> String {
        JSONValue.object([.init("type", .string("answer")), .init("text", .string(text))]).compactText
    }

    /// `{"type":"catalogue","plugins":[{"name":…,"identifier":…,"format":…,"category":…,
    /// "maker":…,"inputs":…,"outputs":…,"instrument":…}…]}`.
    package static func catalogue(_ entries: [CatalogueEntry]) -> String {
        JSONValue.object([.init("type", .string("catalogue")), .init("plugins", .array(entries.map { entry in
            .object([.init("name", .string(entry.name)), .init("identifier", .string(entry.identifier)),
                     .init("format", .string(entry.format)), .init("category", .string(entry.category)),
                     .init("maker", .string(entry.maker)), .init("inputs", .number(entry.inputs)),
                     .init("outputs", .number(entry.outputs)), .init("instrument", .bool(entry.isInstrument))])
        }))]).compactText
    }

    /// `{"type":"values",…}`: each of `indices` with its value, knob position and text.
    package static func values(_ indices: [ParameterIndex], _ snapshot: WebSnapshot) -> String {
        JSONValue.object([
            .init("type", .string("values")), .init("generation", .number(snapshot.generation)),
            .init("values", .array(indices.map { index in
                .object([.init("id", .string(snapshot.layout.table[index].id))] + state(index, snapshot))
            })),
        ]).compactText
    }

    /// `{"type":"outputs","values":[{"id":…,"value":…}…]}`: a value that is not finite (a meter
    /// at silence) is `null`.
    package static func outputs(_ values: [OutputValue]) -> String {
        JSONValue.object([
            .init("type", .string("outputs")),
            .init("values", .array(values.map { .object([.init("id", .string($0.id)), .init("value", .number($0.value, places: 4))]) })),
        ]).compactText
    }

    /// `{"type":"presets","names":[…]}`: the presets the page offers to load (on connecting,
    /// and after a page saved one).
    package static func presets(_ names: [String]) -> String {
        JSONValue.object([.init("type", .string("presets")), .init("names", .array(names.map { .string($0) }))]).compactText
    }

    /// `{"type":"learnt","id":…,"controller":…}`: a MIDI learn mapped that controller.
    package static func learnt(_ learnt: LearntController) -> String {
        JSONValue.object([.init("type", .string("learnt")), .init("id", .string(learnt.id)),
                          .init("controller", .number(learnt.controller))]).compactText
    }

    /// `{"type":"faults","faults":{"drive":"crashed (Segmentation fault)"}}`: the isolated slots
    /// down now (none: an empty object).
    package static func faults(_ faults: [String: String]) -> String {
        JSONValue.object([.init("type", .string("faults")), .init("faults", .object(faults.sorted { $0.key < $1.key }.map {
            JSONMember($0.key, .string($0.value))
        }))]).compactText
    }

    /// `{"type":"error","message":…}`.
    package static func error(_ message: String) -> String {
        JSONValue.object([.init("type", .string("error")), .init("message", .string(message))]).compactText
    }

    private static func state(_ index: ParameterIndex, _ snapshot: WebSnapshot) -> [JSONMember] {
        let spec = snapshot.layout.table[index]
        let value = snapshot.value(index)
        return [.init("value", .number(value)), .init("position", .number(spec.normalized(value))),
                .init("text", .string(spec.format(value)))]
    }
}
