import AudioEngine
import Foundation
import Control
import Testing
import Parameters
import TestSupport

/// A live host without JACK: records what it was sent.
final class FakeControl: LiveControl, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [ParameterIndex: Double]
    private(set) var sent: [[ParameterIndex: Double]] = []
    var reported: HostStatus

    init(_ values: [ParameterIndex: Double] = [:]) {
        var t: [ParameterIndex: Double] = [:]
        for id in LowpassGain.table.ids { t[id] = values[id] ?? LowpassGain.table[id].defaultValue }
        self.values = t
        reported = HostStatus(server: "fake", client: "detent", sampleRate: 48_000, bufferSize: 256, xruns: 0,
                              dspLoad: 1, values: t, peaks: [0, 0], reconnects: 0)
    }

    func set(_ values: [ParameterIndex: Double]) {
        lock.withLock {
            sent.append(values)
            self.values.merge(values) { $1 }
        }
    }

    var table: ParameterTable { LowpassGain.table }
    func targets() -> [ParameterIndex: Double] { lock.withLock { values } }
    func status() -> HostStatus { reported }
}

/// A fake host with a MIDI input: keeps the mapping it is given.
final class FakeMIDIControl: LiveControl, @unchecked Sendable {
    private let lock = NSLock()
    private var controls = MIDIControls.standard(for: LowpassGain.table)
    func set(_ values: [ParameterIndex: Double]) {}
    var table: ParameterTable { LowpassGain.table }
    func targets() -> [ParameterIndex: Double] { LowpassGain.table.defaults }
    func status() -> HostStatus {
        HostStatus(server: "fake", client: nil, sampleRate: nil, bufferSize: nil, xruns: 0, dspLoad: nil,
                   values: [:], peaks: [], reconnects: 0)
    }
    var midiControls: MIDIControls? { lock.withLock { controls } }
    func updateMIDIControls(_ edit: (inout MIDIControls) -> Void) -> MIDIControls? {
        lock.withLock {
            edit(&controls)
            return controls
        }
    }
}

/// A preset store standing in for the Presets module: proves the seam carries presets both ways.
final class MemoryPresets: PresetSource, @unchecked Sendable {
    private let lock = NSLock()
    private var presets: [String: [ParameterIndex: Double]] = ["Dark": [.cutoff: 300]]
    var table: ParameterTable { LowpassGain.table }

    func load(_ name: String) throws -> [ParameterIndex: Double] {
        guard let p = lock.withLock({ presets[name] }) else { throw PresetSourceError.unknown(name) }
        return p
    }

    func save(_ name: String, values: [ParameterIndex: Double]) throws {
        lock.withLock { presets[name] = values }
    }
}

/// A chain's presets, as far as the interpreter sees them: `slot:Name` sets some rows alone.
final class SlotPresetSource: PresetSource, @unchecked Sendable {
    var table: ParameterTable { LowpassGain.table }
    func load(_ name: String) throws -> [ParameterIndex: Double] { [.cutoff: 300] }
    func valuesToLoad(_ name: String) throws -> [ParameterIndex: Double] {
        name.hasPrefix("slot:") ? [.cutoff: 300] : table.complete(try load(name))
    }
    func save(_ name: String, values: [ParameterIndex: Double]) throws {}
}

@Suite struct CommandInterpreterTests {
    @Test("a slot's own preset sets its rows alone: the others keep their values; a whole preset sets every row")
    func slotPresetsLeaveTheOtherRows() {
        let control = FakeControl([.gain: -12, .resonance: 3])
        let interpreter = CommandInterpreter(control: control, presets: SlotPresetSource())
        _ = interpreter.respond(to: "preset load slot:Dark")
        #expect(control.targets()[.cutoff] == 300)
        #expect(control.targets()[.gain] == -12)
        #expect(control.targets()[.resonance] == 3)
        _ = interpreter.respond(to: "preset load Dark")
        #expect(control.targets()[.gain] == LowpassGain.table[.gain].defaultValue)
    }

    static func defaults() -> [ParameterIndex: Double] {
        Dictionary(uniqueKeysWithValues: LowpassGain.table.ids.map { ($0, LowpassGain.table[$0].defaultValue) })
    }

    @Test func setMovesTheParameterAndAnswersWithTheTablesText() throws {
        let control = FakeControl()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        let answer = try #require(interpreter.respond(to: "set cutoff 1.2k"))
        #expect(answer == .value(.cutoff, 1_200))
        #expect(answer.text(LowpassGain.table) == "cutoff=" + LowpassGain.table[.cutoff].format(1_200, ascii: true))
        #expect(control.sent == [[.cutoff: 1_200]])
        #expect(interpreter.respond(to: "get cutoff") == .value(.cutoff, 1_200))
    }

    @Test func anAnswerCanBeTypedBack() throws {
        let interpreter = CommandInterpreter(control: FakeControl(), presets: FactoryDefaultPresets(table: LowpassGain.table))
        for line in ["set cutoff 1234", "set gain -7.5", "set resonance 3.3", "set gain -inf"] {
            let text = try #require(interpreter.respond(to: line)).text(LowpassGain.table)
            let (id, value) = try LowpassGain.table.parseAssignment(text)
            let again = try #require(interpreter.respond(to: "set \(id.id) \(LowpassGain.table[id].format(value, ascii: true))"))
            #expect(again.text(LowpassGain.table) == text)
        }
    }

    @Test func aBadCommandAnswersAnErrorAndChangesNothing() throws {
        let control = FakeControl()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        let bad = try #require(interpreter.respond(to: "set cutoff 99999"))
        let reason = #expect(throws: ParameterError.self) { try LowpassGain.table[.cutoff].parse("99999") }
        #expect(bad == .error(reason!.description))
        #expect(bad.text(LowpassGain.table) == "error: \(reason!.description)")
        #expect(control.sent.isEmpty)
        #expect(interpreter.respond(to: "set gain -3") == .value(.gain, -3))
    }

    @Test func resetReturnsToTheDefaults() throws {
        let control = FakeControl([.cutoff: 300, .gain: -20, .resonance: 5])
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        #expect(interpreter.respond(to: "reset gain") == .value(.gain, LowpassGain.table[.gain].defaultValue))
        #expect(control.target(.cutoff) == 300)
        #expect(interpreter.respond(to: "reset") == .values(Self.defaults()))
        // All at once: one change set, so every parameter moves on the same frame.
        #expect(control.sent.last == Self.defaults())
    }

    @Test func resetUsesTheDefaultPresetWhenThereIsOne() throws {
        let presets = MemoryPresets()
        try presets.save("Default", values: [.cutoff: 5_000])
        let interpreter = CommandInterpreter(control: FakeControl([.cutoff: 300]), presets: presets)
        #expect(interpreter.respond(to: "reset cutoff") == .value(.cutoff, 5_000))
        #expect(interpreter.respond(to: "reset gain") == .value(.gain, LowpassGain.table[.gain].defaultValue))
    }

    @Test func presetsLoadAndSaveThroughTheSource() throws {
        let control = FakeControl([.gain: -10])
        let presets = MemoryPresets()
        let interpreter = CommandInterpreter(control: control, presets: presets)
        var dark = Self.defaults()
        dark[.cutoff] = 300
        #expect(interpreter.respond(to: "preset load Dark") == .preset("Dark", dark))
        #expect(control.sent == [dark])
        _ = interpreter.respond(to: "set gain -4")
        #expect(interpreter.respond(to: "preset save Mine") == .saved("Mine"))
        dark[.gain] = -4
        #expect(try presets.load("Mine") == dark)
    }

    @Test func theStubKnowsOnlyTheDefaultPreset() throws {
        let control = FakeControl([.cutoff: 300])
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        #expect(interpreter.respond(to: "preset load default") == .preset("default", Self.defaults()))
        #expect(interpreter.respond(to: "preset load Warm") == .error(PresetSourceError.unknown("Warm").description))
        #expect(interpreter.respond(to: "preset save Warm") == .error(PresetSourceError.cannotSave("Warm").description))
        #expect(control.sent == [Self.defaults()])
    }

    @Test func statusHelpAndQuit() throws {
        let control = FakeControl()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        #expect(interpreter.respond(to: "status") == .status(control.reported))
        let help = try #require(interpreter.respond(to: "help")).text(LowpassGain.table)
        for form in HostCommand.synopsis { #expect(help.contains(form)) }
        for id in LowpassGain.table.ids { #expect(help.contains(id.id)) }
        let quit = try #require(interpreter.respond(to: "quit"))
        #expect(quit.endsSession)
        #expect(interpreter.respond(to: "") == nil)
    }

    @Test func midiShowsAndChangesTheMapping() throws {
        let control = FakeMIDIControl()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        #expect(interpreter.respond(to: "midi")?.text(LowpassGain.table) == "midi cutoff CC 74, resonance CC 71, gain CC 7 on all channels")
        // Taking the cutoff's controller leaves the cutoff without one.
        #expect(interpreter.respond(to: "midi gain 74")?.text(LowpassGain.table) == "midi resonance CC 71, gain CC 74 on all channels")
        #expect(interpreter.respond(to: "midi channel 2")?.text(LowpassGain.table) == "midi resonance CC 71, gain CC 74 on channel 2")
        #expect(interpreter.respond(to: "midi resonance none")?.text(LowpassGain.table) == "midi gain CC 74 on channel 2")
        #expect(control.midiControls == MIDIControls(table: LowpassGain.table, channel: 2, controllers: [.gain: 74]))
        let json = try jsonObject(try #require(interpreter.respond(to: "midi cutoff 1")).json(LowpassGain.table))
        #expect(json["midiChannel"] as? Int == 2)
        let controllers = try #require(json["midiControllers"] as? [String: Any])
        #expect(controllers.compactMapValues { $0 as? Int } == ["cutoff": 1, "gain": 74])
        #expect(controllers["resonance"] is NSNull)
    }

    @Test func midiWithoutAMIDIInputIsAnError() {
        let control = FakeControl()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: LowpassGain.table))
        for line in ["midi", "midi cutoff 21", "midi channel 1"] {
            #expect(interpreter.respond(to: line) == .error("there is no MIDI input (Detent was started with --no-midi)"))
        }
    }
}

/// A live host running a graph, whose edits are the graph's own.
final class FakeGraphControl: LiveControl, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Processor

    init() throws {
        let parts = [("a", Processor.lowpassGain)]
        let (_, routing) = try Processor.routing(slots: ["a"], connections: [("input", "a"), ("a", "output")], sideInputs: [0])
        current = try Processor.graph(parts, routing: routing)
    }

    func set(_ values: [ParameterIndex: Double]) {}
    var table: ParameterTable { lock.withLock { current.table } }
    func targets() -> [ParameterIndex: Double] { table.defaults }
    func status() -> HostStatus {
        HostStatus(server: "fake", client: nil, sampleRate: nil, bufferSize: nil, xruns: 0, dspLoad: nil, values: [:], peaks: [], reconnects: 0)
    }
    var processor: Processor { lock.withLock { current } }
    func editChain(_ request: ChainRequest) throws(ChainEditError) -> Processor {
        guard case .connect(let from, let to) = request else { throw ChainEditError("only connect here") }
        do {
            let edited = try processor.applying(.connect(from: from, to: to)).processor
            lock.withLock { current = edited }
            return edited
        } catch {
            throw ChainEditError("\(error)")
        }
    }
}

@Suite struct GraphConnectAnswerTests {
    @Test("a connection from a name that is no slot says it made a named input; one from a slot does not")
    func newNamedInputIsSaid() throws {
        let control = try FakeGraphControl()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: control.table))
        let made = interpreter.respond(to: "chain connect nosuch output")?.text(control.table) ?? ""
        #expect(made.hasSuffix("; new named input nosuch"), "\(made)")
        let again = interpreter.respond(to: "chain connect input output")?.text(control.table) ?? ""
        #expect(!again.contains("new named input"), "\(again)")
    }
}
