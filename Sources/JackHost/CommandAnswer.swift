import Parameters
import DSP

/// The one-line answer to a command, as text or as a JSON object.
///
/// Parameter values are written through the parameter table (``ParameterSpec/format(_:ascii:)``)
/// in ASCII (`-6.0 dB`, `-inf dB`), so an answer can be read by a script and typed back:
/// `cutoff=1.20 kHz` answers `set cutoff 1.2k`, and `set cutoff 1.20 kHz` sets it again.
public enum CommandAnswer: Equatable, Sendable {
    /// `set`, `get`, `reset ID`.
    case value(ParameterIndex, Double)
    /// `params`, `reset`.
    case values([ParameterIndex: Double])
    /// `preset load NAME`: the preset's name and the values it set.
    case preset(String, [ParameterIndex: Double])
    /// `preset save NAME`.
    case saved(String)
    case status(HostStatus)
    /// `midi …`: what MIDI control changes do now.
    case midi(MIDIControls)
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
        case .values(let values): Self.assignments(values, table)
        case .preset(let name, let values): "preset \(name): \(Self.assignments(values, table))"
        case .saved(let name): "saved preset \(name)"
        case .status(let s): Self.statusText(s, table)
        case .midi(let controls): "midi \(controls.summary)"
        case .help:
            "commands: \(HostCommand.synopsis.joined(separator: " | ")); ids: \(table.textIDs.joined(separator: ", "))"
        case .bye: "bye"
        case .error(let message): "error: \(message)"
        }
    }

    static func assignment(_ id: ParameterIndex, _ value: Double, _ table: ParameterTable) -> String {
        "\(table[id].id)=\(table[id].format(value, ascii: true))"
    }

    static func assignments(_ values: [ParameterIndex: Double], _ table: ParameterTable) -> String {
        table.indices.compactMap { id in values[id].map { assignment(id, $0, table) } }.joined(separator: ", ")
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
        if s.midiMessages > 0 { parts.append("MIDI control changes \(s.midiMessages)") }
        parts.append(assignments(s.values, table))
        parts.append("peaks " + s.peaks.map(decibels).joined(separator: " / "))
        return parts.joined(separator: ", ")
    }

    // MARK: JSON

    public func json(_ table: ParameterTable) -> String {
        switch self {
        case .value(let id, let v):
            JSONText.object([("ok", "true"), ("id", JSONText.string(table[id].id)), ("value", JSONText.number(v)),
                             ("text", JSONText.string(table[id].format(v, ascii: true)))])
        case .values(let values):
            JSONText.object([("ok", "true")] + Self.jsonValues(values, table))
        case .preset(let name, let values):
            JSONText.object([("ok", "true"), ("preset", JSONText.string(name))] + Self.jsonValues(values, table))
        case .saved(let name):
            JSONText.object([("ok", "true"), ("saved", JSONText.string(name))])
        case .status(let s):
            JSONText.object([
                ("ok", "true"), ("server", JSONText.string(s.server)),
                ("connected", "\(s.isConnected)"),
                ("client", s.client.map(JSONText.string) ?? "null"),
                ("sampleRate", s.sampleRate.map { "\($0)" } ?? "null"),
                ("bufferSize", s.bufferSize.map { "\($0)" } ?? "null"),
                ("xruns", "\(s.xruns)"),
                ("dspLoad", s.dspLoad.map(JSONText.number) ?? "null"),
                ("reconnects", "\(s.reconnects)"),
                ("midiMessages", "\(s.midiMessages)"),
            ] + Self.jsonValues(s.values, table) + [
                ("peaks", JSONText.array(s.peaks.map { JSONText.number(Double($0)) })),
            ])
        case .midi(let controls):
            JSONText.object([
                ("ok", "true"),
                ("midiChannel", controls.channel.map { "\($0)" } ?? "null"),
                ("midiControllers", JSONText.object(table.indices.map { id in
                    (table[id].id, controls.controllers[id].map { "\($0)" } ?? "null")
                })),
            ])
        case .help:
            JSONText.object([("ok", "true"), ("commands", JSONText.array(HostCommand.synopsis.map(JSONText.string))),
                             ("ids", JSONText.array(table.indices.map { JSONText.string(table[$0].id) }))])
        case .bye:
            JSONText.object([("ok", "true"), ("bye", "true")])
        case .error(let message):
            JSONText.object([("ok", "false"), ("error", JSONText.string(message))])
        }
    }

    /// `"values": {id: number}` and `"text": {id: formatted}`, in table order.
    static func jsonValues(_ values: [ParameterIndex: Double], _ table: ParameterTable) -> [(String, String)] {
        let ids = table.indices.filter { values[$0] != nil }
        return [
            ("values", JSONText.object(ids.map { (table[$0].id, JSONText.number(values[$0]!)) })),
            ("text", JSONText.object(ids.map { (table[$0].id, JSONText.string(table[$0].format(values[$0]!, ascii: true))) })),
        ]
    }
}
