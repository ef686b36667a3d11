import Parameters
import DSP

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
    /// The controller number each mapped parameter answers to. Parameters missing here do
    /// not answer to MIDI; no two share a controller.
    public private(set) var controllers: [ParameterIndex: Int]

    /// Controller numbers a parameter may take (the parameter table's rule).
    public static let controllerRange = ParameterSpec.midiControllerRange
    public static let channelRange = 1...16

    /// Every parameter on its table row's controller, every channel.
    public static func standard(for table: ParameterTable) -> MIDIControls {
        MIDIControls(table: table, channel: nil, controllers: Dictionary(
            uniqueKeysWithValues: table.indices.compactMap { id in table[id].midiController.map { (id, $0) } }))
    }

    public init(table: ParameterTable, channel: Int?, controllers: [ParameterIndex: Int]) {
        self.table = table
        self.channel = channel
        self.controllers = controllers
    }

    /// The parameter a controller number turns, if any.
    public func parameter(forController number: Int) -> ParameterIndex? {
        controllers.first { $0.value == number }?.key
    }

    /// Applies `ID=CC` or `ID=none` assignments (as `--midi-cc` takes them), in order. A
    /// parameter whose standard controller another one is given here gives it up, so moving
    /// gain to 74 leaves the cutoff without one rather than failing; two assignments naming
    /// the same controller are an error.
    ///
    /// - Throws: ``LiveHostError/invalidMIDIControl(_:reason:)`` naming the assignment; then
    ///   nothing has changed.
    public mutating func assign(parsing assignments: [String]) throws(LiveHostError) {
        var given: [Int: ParameterIndex] = [:]
        var result = self
        for text in assignments {
            let (id, number) = try parseAssignment(text)
            guard let number else {
                result.assign(id, to: nil)
                continue
            }
            if let other = given[number], other != id {
                throw .invalidMIDIControl(text, reason: "controller \(number) is already given to \(table[other].id)")
            }
            given[number] = id
            result.assign(id, to: number)
        }
        self = result
    }

    /// Gives parameter `id` the controller `number` (nil: none). A parameter that had that
    /// controller loses it: the one typed last wins, as with a knob.
    public mutating func assign(_ id: ParameterIndex, to number: Int?) {
        controllers[id] = nil
        guard let number else { return }
        if let holder = parameter(forController: number) { controllers[holder] = nil }
        controllers[id] = number
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
    func parseAssignment(_ text: String) throws(LiveHostError) -> (ParameterIndex, Int?) {
        guard let eq = text.firstIndex(of: "=") else {
            throw .invalidMIDIControl(text, reason: "expected ID=CC, e.g. cutoff=74 or gain=none")
        }
        let id: ParameterIndex
        do { id = try table.index(of: String(text[..<eq])) } catch {
            throw .invalidMIDIControl(text, reason: error.description)
        }
        switch Self.controller(String(text[text.index(after: eq)...])) {
        case .number(let number): return (id, number)
        case .none: return (id, nil)
        case .invalid: throw .invalidMIDIControl(text, reason: "expected \(Self.controllerExpectation)")
        }
    }

    /// Parses `--midi-channel`: 1…16, or `all`.
    public static func parseChannel(_ text: String) throws(LiveHostError) -> Int? {
        let value = text.trimmedWhitespace
        if value.lowercased() == "all" { return nil }
        guard let channel = Int(value), channelRange.contains(channel) else { throw .invalidMIDIChannel(text) }
        return channel
    }

    /// The mapping as `--midi-cc` takes it: `cutoff=74, resonance=71, gain=7`.
    public var assignments: String {
        table.indices.map { id in "\(table[id].id)=" + (controllers[id].map(String.init) ?? "none") }
            .joined(separator: ", ")
    }

    /// One line for the start-up message: `cutoff CC 74, resonance CC 71, gain CC 7 on all channels`.
    public var summary: String {
        let mapped = table.indices.compactMap { id in controllers[id].map { "\(table[id].id) CC \($0)" } }
        let on = channel.map { "on channel \($0)" } ?? "on all channels"
        return mapped.isEmpty ? "no controllers mapped" : mapped.joined(separator: ", ") + " " + on
    }
}
