import Parameters
import AudioEngine

/// Which MIDI control changes turn which knobs in `detent live`: one controller number per
/// parameter, heard on one channel or on all sixteen.
///
/// Out of the box each parameter answers to the controller its table row names (cutoff to
/// 74, resonance to 71, gain to 7: the General MIDI 2 sound controllers for those jobs), on
/// every channel, so most controllers work without setting anything up. A controller's value
/// 0…127 is a knob position: it goes through the parameter's taper, the way the panel's knob
/// does, so 64 is about the middle of the knob's travel (650 Hz for the cutoff), not of the
/// range in hertz.
///
/// ```swift
/// var controls = MIDIControls.standard
/// try controls.assign(parsing: ["cutoff=21", "gain=none"])  // --midi-cc
/// controls.channel = 2                                      // --midi-channel 2
/// ```
public struct MIDIControls: Sendable, Equatable {
    /// The channel listened to, 1…16; nil for every channel.
    public var channel: Int?
    /// The parameters that can be mapped.
    public let table: ParameterTable
    /// What turns what, in the order given (see ``MIDIMapping``).
    public private(set) var mappings: [MIDIMapping]
    /// The presets program changes 0, 1, 2… load, in order.
    public var programPresets: [String] = []
    /// Whether `midi_out` sends the mapped parameters' positions as they change.
    public var feedback = true
    /// What a plain controller given later (`midi ID CC`, learn) does far from its knob.
    public var defaultTakeover = MIDIMapping.Takeover.pickup

    /// Controller numbers a parameter may take (the parameter table's rule).
    public static let controllerRange = ParameterSpec.midiControllerRange
    public static let channelRange = 1...16
    /// NRPN and RPN numbers.
    public static let parameterNumberRange = 0...16_383

    /// Every parameter on its table row's controller, every channel.
    public static func standard(for table: ParameterTable) -> MIDIControls {
        MIDIControls(table: table, channel: nil, controllers: Dictionary(
            uniqueKeysWithValues: table.indices.compactMap { id in table[id].midiController.map { (id, $0) } }))
    }

    /// One plain 7-bit controller per parameter, picked up where the knob is.
    public init(table: ParameterTable, channel: Int?, controllers: [ParameterIndex: Int]) {
        self.init(table: table, channel: channel, mappings: controllers.sorted { $0.key < $1.key }.map {
            MIDIMapping(parameter: $0.key, source: .controller($0.value))
        })
    }

    public init(table: ParameterTable, channel: Int?, mappings: [MIDIMapping]) {
        self.table = table
        self.channel = channel
        self.mappings = mappings
    }

    /// The same mapping over `table`, after a live chain edit: each mapping follows its
    /// parameter to the row it continues as (`rows`); a removed parameter's are dropped.
    public func retabled(_ table: ParameterTable, rows: [ParameterIndex: ParameterIndex]) -> MIDIControls {
        var copy = MIDIControls(table: table, channel: channel, mappings: mappings.compactMap { mapping in
            guard let row = rows[mapping.parameter] else { return nil }
            var moved = mapping
            moved.parameter = row
            return moved
        })
        copy.programPresets = programPresets
        copy.feedback = feedback
        copy.defaultTakeover = defaultTakeover
        return copy
    }

    /// The 7-bit controller number of each parameter that has one (its first): what MIDI
    /// learn and the panel show.
    public var controllers: [ParameterIndex: Int] {
        var result: [ParameterIndex: Int] = [:]
        for mapping in mappings where result[mapping.parameter] == nil {
            if case .controller(let n) = mapping.source, !mapping.fine { result[mapping.parameter] = n }
        }
        return result
    }

    /// The parameter a plain controller number turns, if any.
    public func parameter(forController number: Int) -> ParameterIndex? {
        mappings.first { $0.source == .controller(number) && !$0.fine }?.parameter
    }

    /// Makes every absolute mapping pick up or jump (`--midi-takeover`).
    public mutating func setTakeover(_ takeover: MIDIMapping.Takeover) {
        for i in mappings.indices { mappings[i].takeover = takeover }
        defaultTakeover = takeover
    }

    /// The same mapping with every absolute controller picking up or jumping.
    public func takeover(_ takeover: MIDIMapping.Takeover) -> MIDIControls {
        var copy = self
        copy.setTakeover(takeover)
        return copy
    }

    /// Adds a mapping as it is (a macro shares its source with others).
    public mutating func add(_ mapping: MIDIMapping) {
        mappings.append(mapping)
    }

    /// Applies `ID=CC` or `ID=none` assignments (as `--midi-cc` takes them), in order. A
    /// parameter whose standard controller another one is given here gives it up, so moving
    /// gain to 74 leaves the cutoff without one rather than failing; two assignments naming
    /// the same controller are an error.
    ///
    /// - Throws: ``MIDIControlError/invalidAssignment(_:reason:)`` naming the assignment; then
    ///   nothing has changed.
    public mutating func assign(parsing assignments: [String]) throws(MIDIControlError) {
        var given: [Int: ParameterIndex] = [:]
        var result = self
        for text in assignments {
            let (id, number) = try parseAssignment(text)
            guard let number else {
                result.assign(id, to: nil)
                continue
            }
            if let other = given[number], other != id {
                throw .invalidAssignment(text, reason: "controller \(number) is already given to \(table[other].id)")
            }
            given[number] = id
            result.assign(id, to: number)
        }
        self = result
    }

    /// Gives parameter `id` the plain controller `number` (nil: none), in place of its 7-bit
    /// controllers. A parameter that had that controller loses it: the one typed last wins,
    /// as with a knob. Other mappings (14-bit, NRPN, macros on other numbers) stay.
    public mutating func assign(_ id: ParameterIndex, to number: Int?) {
        func sevenBit(_ m: MIDIMapping) -> Int? {
            if case .controller(let n) = m.source, !m.fine { return n }
            return nil
        }
        let at = mappings.firstIndex { $0.parameter == id && sevenBit($0) != nil }
        mappings.removeAll { ($0.parameter == id && sevenBit($0) != nil) || (number != nil && sevenBit($0) == number) }
        guard let number else { return }
        let mapping = MIDIMapping(parameter: id, source: .controller(number), takeover: defaultTakeover)
        mappings.insert(mapping, at: min(at ?? mappings.count, mappings.count))
    }

    /// A controller as typed: a number in ``controllerRange``, or `none`.
    enum ControllerText: Equatable {
        case number(Int)
        case none
        case invalid
    }

    static func controller(_ text: String) -> ControllerText {
        let value = text.trimmedWhitespace
        if value.lowercased() == "none" { return .none }
        guard let number = Int(value), controllerRange.contains(number) else { return .invalid }
        return .number(number)
    }

    /// What a controller must be, for messages.
    static var controllerExpectation: String {
        "a controller number \(controllerRange.lowerBound) … \(controllerRange.upperBound) or none"
    }

    /// One `ID=CC` or `ID=none`.
    func parseAssignment(_ text: String) throws(MIDIControlError) -> (ParameterIndex, Int?) {
        guard let eq = text.firstIndex(of: "=") else {
            throw .invalidAssignment(text, reason: "expected ID=CC, e.g. cutoff=74 or gain=none")
        }
        let id: ParameterIndex
        do { id = try table.index(of: String(text[..<eq])) } catch {
            throw .invalidAssignment(text, reason: error.description)
        }
        switch Self.controller(String(text[text.index(after: eq)...])) {
        case .number(let number): return (id, number)
        case .none: return (id, nil)
        case .invalid: throw .invalidAssignment(text, reason: "expected \(Self.controllerExpectation)")
        }
    }

    /// Parses `--midi-channel`: 1…16, or `all`.
    public static func parseChannel(_ text: String) throws(MIDIControlError) -> Int? {
        let value = text.trimmedWhitespace
        if value.lowercased() == "all" { return nil }
        guard let channel = Int(value), channelRange.contains(channel) else { throw .invalidChannel(text) }
        return channel
    }

    /// The mapping as `--midi-cc` takes it: `cutoff=74, resonance=71, gain=7`.
    public var assignments: String {
        let plain = controllers
        return table.indices.map { id in "\(table[id].id)=" + (plain[id].map(String.init) ?? "none") }
            .joined(separator: ", ")
    }

    /// One line for the start-up message and `midi`: `cutoff CC 74, gain NRPN 1234 (14-bit,
    /// -24…0 dB, inverted) on all channels`.
    public var summary: String {
        let on = channel.map { "on channel \($0)" } ?? "on all channels"
        guard !mappings.isEmpty else { return "no controllers mapped" }
        var text = mappings.map(describe).joined(separator: ", ") + " " + on
        if !programPresets.isEmpty { text += "; program changes load " + programPresets.joined(separator: ", ") }
        return text
    }

    /// One mapping for people: `cutoff CC 74`, `gain CC 7/39 (14-bit, jump)`.
    public func describe(_ m: MIDIMapping) -> String {
        let spec = table[m.parameter]
        var source: String
        switch m.source {
        case .controller(let n): source = m.fine ? "CC \(n)/\(n + 32)" : "CC \(n)"
        case .nrpn(let n): source = "NRPN \(n)"
        case .rpn(let n): source = "RPN \(n)"
        }
        var details: [String] = []
        if m.isFourteenBit { details.append("14-bit") }
        if m.encoding != .absolute { details.append(m.encoding.rawValue) } else if m.takeover == .jump { details.append("jump") }
        if let range = m.range { details.append(spec.format(range.lowerBound, ascii: true) + "…" + spec.format(range.upperBound, ascii: true)) }
        if m.invert { details.append("inverted") }
        if !details.isEmpty { source += " (" + details.joined(separator: ", ") + ")" }
        return "\(spec.id) \(source)"
    }
}
