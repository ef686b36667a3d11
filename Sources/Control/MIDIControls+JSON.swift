import TextFormats
import Parameters

/// The mapping as JSON: a mapping file (`--midi-map`, `midi save`), a preset's `midi` field and
/// a saved session all hold this document, in the presets' style:
///
/// ```json
/// {
///   "channel": null,
///   "feedback": true,
///   "programPresets": ["Warm", "Dark"],
///   "mappings": [
///     {"parameter": "cutoff", "controller": 74},
///     {"parameter": "cutoff", "controller": 16, "fine": true, "takeover": "jump"},
///     {"parameter": "gain", "nrpn": 1234, "min": -24, "max": 0, "invert": true},
///     {"parameter": "resonance", "controller": 21, "encoding": "relative-twos"}
///   ]
/// }
/// ```
///
/// `channel` is 1…16 or null (every channel). A mapping names one of `controller` (0…119),
/// `nrpn` or `rpn` (0…16383); `fine` (14-bit controller pair), `encoding` (`absolute`,
/// `relative-twos`, `relative-offset`, `relative-sign`), `takeover` (`pickup`, `jump`), `min`
/// and `max` (in the parameter's unit) and `invert` are optional. Two mappings with one source
/// make a macro.
extension MIDIControls {
    public var json: JSONValue {
        var members = [JSONMember("channel", channel.map { .number($0) } ?? .null), JSONMember("feedback", .bool(feedback))]
        if defaultTakeover != .pickup { members.append(JSONMember("takeover", .string(defaultTakeover.rawValue))) }
        if !programPresets.isEmpty { members.append(JSONMember("programPresets", .array(programPresets.map { .string($0) }))) }
        members.append(JSONMember("mappings", .array(mappings.map { json($0) })))
        return .object(members)
    }

    /// One mapping, with only what differs from the defaults.
    func json(_ m: MIDIMapping) -> JSONValue {
        var members = [JSONMember("parameter", .string(table[m.parameter].id))]
        switch m.source {
        case .controller(let n): members.append(JSONMember("controller", .number(n)))
        case .nrpn(let n): members.append(JSONMember("nrpn", .number(n)))
        case .rpn(let n): members.append(JSONMember("rpn", .number(n)))
        }
        if m.fine, case .controller = m.source { members.append(JSONMember("fine", .bool(true))) }
        if m.encoding != .absolute { members.append(JSONMember("encoding", .string(m.encoding.rawValue))) }
        if m.takeover != defaultTakeover { members.append(JSONMember("takeover", .string(m.takeover.rawValue))) }
        if let range = m.range {
            members.append(JSONMember("min", .number(range.lowerBound)))
            members.append(JSONMember("max", .number(range.upperBound)))
        }
        if m.invert { members.append(JSONMember("invert", .bool(true))) }
        return .object(members)
    }

    /// The mapping `json` describes for `table`. `{"controllers": {"cutoff": 74}}`, the short
    /// form, is read too.
    /// - Throws: ``MIDIMapError`` naming the member at fault (`mappings[2].nrpn`).
    public init(json: JSONValue, table: ParameterTable) throws(MIDIMapError) {
        self.init(table: table, channel: nil, mappings: [])
        guard case .object(let members) = json else { throw MIDIMapError(at: "", "expected an object, found \(json.kindDescription)") }
        let known: Set = ["channel", "feedback", "takeover", "programPresets", "mappings", "controllers"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw MIDIMapError(at: unknown.key, "unknown field (expected \(known.sorted().joined(separator: ", ")))")
        }
        switch json.member("channel") {
        case nil, .null?: channel = nil
        case let value?:
            guard let n = value.doubleValue, let c = Int(exactly: n), Self.channelRange.contains(c) else {
                throw MIDIMapError(at: "channel", "expected 1 … 16 or null, found \(value.compactText)")
            }
            channel = c
        }
        if let value = json.member("feedback") {
            guard case .bool(let on) = value else { throw MIDIMapError(at: "feedback", "expected true or false") }
            feedback = on
        }
        if let value = json.member("takeover") {
            guard case .string(let text) = value, let takeover = MIDIMapping.Takeover(rawValue: text) else {
                throw MIDIMapError(at: "takeover", "expected pickup or jump")
            }
            defaultTakeover = takeover
        }
        if let value = json.member("programPresets") {
            guard case .array(let names) = value else { throw MIDIMapError(at: "programPresets", "expected an array of preset names") }
            programPresets = try names.enumerated().map { i, name throws(MIDIMapError) in
                guard case .string(let text) = name, !text.isEmpty else {
                    throw MIDIMapError(at: "programPresets[\(i)]", "expected a preset name")
                }
                return text
            }
            guard programPresets.count <= 128 else { throw MIDIMapError(at: "programPresets", "at most 128 (programs 0 … 127)") }
        }
        if let value = json.member("controllers") {
            guard case .object(let pairs) = value else { throw MIDIMapError(at: "controllers", "expected an object of ID: CC") }
            for pair in pairs {
                let id: ParameterIndex
                do { id = try table.index(of: pair.key) } catch { throw MIDIMapError(at: "controllers.\(pair.key)", error.description) }
                let text: String = switch pair.value {
                case .string(let word): word
                case .null: "none"
                default: pair.value.compactText
                }
                switch Self.controller(text) {
                case .number(let number): assign(id, to: number)
                case .none: assign(id, to: nil)
                case .invalid: throw MIDIMapError(at: "controllers.\(pair.key)", "expected \(Self.controllerExpectation)")
                }
            }
        }
        if let value = json.member("mappings") {
            guard case .array(let items) = value else { throw MIDIMapError(at: "mappings", "expected an array of mappings") }
            for (i, item) in items.enumerated() { add(try mapping(item, at: "mappings[\(i)]")) }
        }
    }

    private func mapping(_ item: JSONValue, at path: String) throws(MIDIMapError) -> MIDIMapping {
        guard case .object(let members) = item else { throw MIDIMapError(at: path, "expected an object") }
        let known: Set = ["parameter", "controller", "nrpn", "rpn", "fine", "encoding", "takeover", "min", "max", "invert"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw MIDIMapError(at: "\(path).\(unknown.key)", "unknown field")
        }
        guard case .string(let name)? = item.member("parameter") else { throw MIDIMapError(at: "\(path).parameter", "expected a parameter id") }
        let id: ParameterIndex
        do { id = try table.index(of: name) } catch { throw MIDIMapError(at: "\(path).parameter", error.description) }
        func integer(_ key: String, _ allowed: ClosedRange<Int>) throws(MIDIMapError) -> Int? {
            guard let value = item.member(key) else { return nil }
            guard let n = value.doubleValue, let i = Int(exactly: n), allowed.contains(i) else {
                throw MIDIMapError(at: "\(path).\(key)", "expected a whole number \(allowed.lowerBound) … \(allowed.upperBound)")
            }
            return i
        }
        func flag(_ key: String) throws(MIDIMapError) -> Bool {
            guard let value = item.member(key) else { return false }
            guard case .bool(let on) = value else { throw MIDIMapError(at: "\(path).\(key)", "expected true or false") }
            return on
        }
        let sources = [
            try integer("controller", Self.controllerRange).map(MIDIMapping.Source.controller),
            try integer("nrpn", Self.parameterNumberRange).map(MIDIMapping.Source.nrpn),
            try integer("rpn", Self.parameterNumberRange).map(MIDIMapping.Source.rpn),
        ].compactMap { $0 }
        guard sources.count == 1, let source = sources.first else {
            throw MIDIMapError(at: path, "expected one of controller, nrpn or rpn")
        }
        let fine = try flag("fine")
        if fine, case .controller(let n) = source, n > 31 {
            throw MIDIMapError(at: "\(path).fine", "a 14-bit pair needs a controller 0 … 31 (its LSB is controller + 32)")
        }
        var mapping = MIDIMapping(parameter: id, source: source, fine: fine, takeover: defaultTakeover, invert: try flag("invert"))
        if let value = item.member("encoding") {
            guard case .string(let text) = value, let encoding = MIDIMapping.Encoding(rawValue: text) else {
                throw MIDIMapError(at: "\(path).encoding", "expected one of \(MIDIMapping.Encoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            mapping.encoding = encoding
        }
        if let value = item.member("takeover") {
            guard case .string(let text) = value, let takeover = MIDIMapping.Takeover(rawValue: text) else {
                throw MIDIMapError(at: "\(path).takeover", "expected pickup or jump")
            }
            mapping.takeover = takeover
        }
        let spec = table[id]
        func bound(_ key: String) throws(MIDIMapError) -> Double? {
            guard let value = item.member(key) else { return nil }
            guard let v = value.doubleValue, v.isFinite, spec.range.contains(v) else {
                throw MIDIMapError(at: "\(path).\(key)", "expected a number in \(spec.id)'s range, "
                                   + "\(spec.format(spec.range.lowerBound, ascii: true)) … \(spec.format(spec.range.upperBound, ascii: true))")
            }
            return v
        }
        let low = try bound("min"), high = try bound("max")
        if low != nil || high != nil {
            let a = low ?? spec.range.lowerBound, b = high ?? spec.range.upperBound
            guard a < b else { throw MIDIMapError(at: "\(path).min", "min must be below max") }
            mapping.range = a...b
        }
        return mapping
    }
}

/// A mapping document that cannot be used: where in it, and why.
public struct MIDIMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member at fault (`mappings[2].nrpn`), empty for the whole document.
    public let path: String
    public let reason: String

    public init(at path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
