import TextFormats
import Parameters
import AudioEngine

/// The one-line answer to a command, as text or as a JSON object.
///
/// Parameter values are written through the parameter table (``ParameterSpec/format(_:ascii:)``)
/// in ASCII (`-6.0 dB`, `-inf dB`), so an answer can be read by a script and typed back:
/// `cutoff=1.20 kHz` answers `set cutoff 1.2k`, and `set cutoff 1.20 kHz` sets it again.
/// One slot of a chain as `chain` answers it.
public struct ChainSlotText: Equatable, Sendable {
    public let name: String
    public let processor: String
    public let identifier: String

    /// The slots of `processor` (a single processor as the one slot it would be in a chain).
    public static func slots(of processor: Processor) -> [ChainSlotText] {
        processor.chainParts.map { ChainSlotText(name: $0.name, processor: $0.processor.name, identifier: $0.processor.identifier) }
    }

    /// A graph's connections as `FROM>TO` (none for a chain, whose slots run in order).
    public static func connections(of processor: Processor) -> [String] {
        Processor.graphParts(of: processor.identifier)?.connections.map { "\($0.from)>\($0.to)" } ?? []
    }
}

public enum CommandAnswer: Equatable, Sendable {
    /// `set`, `get`, `reset ID`.
    case value(ParameterIndex, Double)
    /// `get ID` of a read-only output.
    case output(OutputValue)
    /// `params`, `reset`.
    case values([ParameterIndex: Double])
    /// `set ID PATH` of a file parameter: its id and the absolute path loaded.
    case file(String, String)
    /// `preset load NAME`: the preset's name and the values it set.
    case preset(String, [ParameterIndex: Double])
    /// `preset save NAME`.
    case saved(String)
    case status(HostStatus)
    /// `midi …`: what MIDI control changes do now.
    case midi(MIDIControls)
    /// `midi save`: the file written.
    case midiSaved(String)
    /// `chain …`: the slots now, by name, with their processors' names, and a graph's
    /// connections (`FROM>TO`).
    case chain([ChainSlotText], connections: [String] = [], newInputs: [String] = [])
    /// `restart SLOT`: the slot started afresh.
    case restarted(String)
    case help
    /// `quit`: the last answer.
    case bye
    case error(String)

    /// True for the answer after which the session ends.
    public var endsSession: Bool { self == .bye }

    // MARK: Text

    public func text(_ table: ParameterTable) -> String {
        switch self {
        case .value(let id, let v): Self.assignment(id, v, table)
        case .output(let output): Self.outputText(output)
        case .values(let values): Self.assignments(values, table)
        case .file(let id, let path): "\(id)=\(TerminalText.printable(path))"
        case .preset(let name, let values): "preset \(name): \(Self.assignments(values, table))"
        case .saved(let name): "saved preset \(name)"
        case .status(let s): Self.statusText(s, table)
        case .midi(let controls): "midi \(controls.summary)"
        case .midiSaved(let path): "saved MIDI mapping \(path)"
        case .chain(let slots, let connections, let new) where !connections.isEmpty:
            "graph " + slots.map { "\($0.name) (\($0.processor))" }.joined(separator: ", ") + "; " + connections.joined(separator: " ")
                + (new.isEmpty ? "" : "; new named input\(new.count == 1 ? "" : "s") " + new.joined(separator: ", "))
        case .chain(let slots, _, _): "chain " + slots.map { "\($0.name) (\($0.processor))" }.joined(separator: " -> ")
        case .restarted(let slot): "restarted \(slot)"
        case .help:
            "commands: \(HostCommand.synopsis.joined(separator: " | ")); ids: \(table.textIDs.joined(separator: ", "))"
        case .bye: "bye"
        // Errors repeat what was typed: its control characters are shown, not sent.
        case .error(let message): "error: \(TerminalText.printable(message))"
        }
    }

    static func assignment(_ id: ParameterIndex, _ value: Double, _ table: ParameterTable) -> String {
        "\(table[id].id)=\(table[id].format(value, ascii: true))"
    }

    static func assignments(_ values: [ParameterIndex: Double], _ table: ParameterTable) -> String {
        table.indices.compactMap { id in values[id].map { assignment(id, $0, table) } }.joined(separator: ", ")
    }

    /// `id=value` of a read-only output: up to four decimals, no trailing zeros.
    static func outputText(_ output: OutputValue) -> String {
        "\(output.id)=\(outputNumber(output.value))"
    }

    static func outputNumber(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value > 0 ? "inf" : "-inf" }
        var text = DecimalText.fixed(value, decimals: 4, ascii: true)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// A linear peak as dBFS, `-inf dBFS` for silence.
    static func decibels(_ peak: Float) -> String {
        guard peak > 0 else { return "-inf dBFS" }
        let db = 20 * RealtimeMath.log2(Double(peak)) / RealtimeMath.log2Of10
        return DecimalText.fixed(db, decimals: 1, ascii: true) + " dBFS"
    }

    static func statusText(_ s: HostStatus, _ table: ParameterTable) -> String {
        var parts = ["server \(s.server)"]
        if let client = s.client, let rate = s.sampleRate, let frames = s.bufferSize {
            parts += ["client \(client)", "\(rate) Hz", "\(frames) frames"]
        } else {
            parts.append("disconnected (waiting for the server)")
        }
        parts.append("xruns \(s.xruns)")
        if let load = s.dspLoad { parts.append("DSP load \(DecimalText.fixed(load, decimals: 1, ascii: true)) %") }
        if s.reconnects > 0 { parts.append("reconnects \(s.reconnects)") }
        if s.connections > 0 || s.rememberedConnections > 0 {
            parts.append("connections \(s.connections)")
            if s.rememberedConnections != s.connections { parts.append("remembered \(s.rememberedConnections)") }
        }
        if s.midiMessages > 0 { parts.append("MIDI control changes \(s.midiMessages)") }
        if s.latency > 0 { parts.append("latency \(s.latency) frames") }
        if s.sanitizedSamples > 0 { parts.append("non-finite output samples \(s.sanitizedSamples)") }
        for (slot, reason) in s.faults.sorted(by: { $0.key < $1.key }) { parts.append("slot \(slot) \(reason), passing its input through") }
        for rule in s.connectionRules {
            parts.append("rule \(rule.rule) " + (rule.matched.isEmpty ? "(nothing yet)" : "(\(rule.matched.joined(separator: " ")))"))
        }
        for (slot, frames) in s.absurdOutput.sorted(by: { $0.key < $1.key }) {
            parts.append("slot \(slot) sent absurd output (\(frames) frames passed its input through)")
        }
        parts.append(assignments(s.values, table))
        if !s.outputs.isEmpty { parts.append("outputs " + s.outputs.map(outputText).joined(separator: " ")) }
        parts.append("peaks " + s.peaks.map(decibels).joined(separator: " / "))
        return parts.joined(separator: ", ")
    }

    // MARK: JSON

    public func json(_ table: ParameterTable) -> String { jsonValue(table).compactText }

    /// The answer as a JSON object: `ok` first, then what was asked.
    func jsonValue(_ table: ParameterTable) -> JSONValue {
        func object(_ members: [(String, JSONValue)]) -> JSONValue {
            .object([JSONMember("ok", .bool(true))] + members.map { JSONMember($0.0, $0.1) })
        }
        switch self {
        case .value(let id, let v):
            return object([("id", .string(table[id].id)), ("value", .number(v)),
                           ("text", .string(table[id].format(v, ascii: true)))])
        case .output(let output):
            return object([("id", .string(output.id)), ("value", Self.jsonNumber(output.value)), ("output", .bool(true))])
        case .values(let values):
            return object(Self.jsonValues(values, table))
        case .file(let id, let path):
            return object([("id", .string(id)), ("path", .string(path))])
        case .preset(let name, let values):
            return object([("preset", .string(name))] + Self.jsonValues(values, table))
        case .saved(let name):
            return object([("saved", .string(name))])
        case .status(let s):
            return object([
                ("server", .string(s.server)),
                ("connected", .bool(s.isConnected)),
                ("client", .string(s.client)),
                ("sampleRate", s.sampleRate.map { .number($0) } ?? .null),
                ("bufferSize", s.bufferSize.map { .number($0) } ?? .null),
                ("xruns", .number(s.xruns)),
                ("dspLoad", s.dspLoad.map { .number($0) } ?? .null),
                ("reconnects", .number(s.reconnects)),
                ("connections", .number(s.connections)),
                ("rememberedConnections", .number(s.rememberedConnections)),
                ("midiMessages", .number(s.midiMessages)),
                ("latency", .number(s.latency)),
                ("sanitizedSamples", .number(s.sanitizedSamples)),
                ("faults", .object(s.faults.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) })),
                ("connectionRules", .array(s.connectionRules.map {
                    .object([JSONMember("rule", .string($0.rule)), JSONMember("matched", .array($0.matched.map { .string($0) }))])
                })),
                ("absurdOutput", .object(s.absurdOutput.sorted { $0.key < $1.key }.map { JSONMember($0.key, .number($0.value)) })),
            ] + Self.jsonValues(s.values, table) + [
                ("outputs", .object(s.outputs.map { JSONMember($0.id, Self.jsonNumber($0.value)) })),
                ("peaks", .array(s.peaks.map { .number(Double($0)) })),
            ])
        case .midi(let controls):
            return object([
                ("midiChannel", controls.channel.map { .number($0) } ?? .null),
                ("midiControllers", .object(table.indices.map { id in
                    JSONMember(table[id].id, controls.controllers[id].map { .number($0) } ?? .null)
                })),
                ("midiMap", controls.json),
            ])
        case .help:
            return object([("commands", .array(HostCommand.synopsis.map { .string($0) })),
                           ("ids", .array(table.indices.map { .string(table[$0].id) }))])
        case .chain(let slots, let connections, let new):
            let rows: JSONValue = .array(slots.map {
                .object([JSONMember("slot", .string($0.name)), JSONMember("processor", .string($0.processor)),
                         JSONMember("identifier", .string($0.identifier))])
            })
            if connections.isEmpty { return object([("chain", rows)]) }
            return object([("chain", rows), ("connections", .array(connections.map { .string($0) }))]
                          + (new.isEmpty ? [] : [("newInputs", .array(new.map { .string($0) }))]))
        case .midiSaved(let path):
            return object([("savedMIDIMap", .string(path))])
        case .restarted(let slot):
            return object([("restarted", .string(slot))])
        case .bye:
            return object([("bye", .bool(true))])
        case .error(let message):
            return .object([JSONMember("ok", .bool(false)), JSONMember("error", .string(message))])
        }
    }

    /// A number, or null where JSON has none (NaN, infinity).
    static func jsonNumber(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }

    /// `"values": {id: number}` and `"text": {id: formatted}`, in table order.
    static func jsonValues(_ values: [ParameterIndex: Double], _ table: ParameterTable) -> [(String, JSONValue)] {
        let ids = table.indices.filter { values[$0] != nil }
        return [
            ("values", .object(ids.map { JSONMember(table[$0].id, .number(values[$0]!)) })),
            ("text", .object(ids.map { JSONMember(table[$0].id, .string(table[$0].format(values[$0]!, ascii: true))) })),
        ]
    }
}
