import AudioEngine
import Control
import Testing
import Parameters

@Suite struct HostCommandTests {
    /// The value the parameter table itself reads from `text`.
    static func table(_ id: ParameterIndex, _ text: String) throws -> Double { try LowpassGain.table[id].parse(text) }

    @Test func parsesEveryCommand() throws {
        let cases: [(String, HostCommand)] = [
            ("set cutoff 1.2k", .set(.cutoff, 1_200)),
            ("set gain -6 dB", .set(.gain, try Self.table(.gain, "-6 dB"))),
            ("set resonance 4", .set(.resonance, 4)),
            ("get resonance", .get(.resonance)),
            ("params", .params),
            ("reset", .reset(nil)),
            ("reset gain", .reset(.gain)),
            ("preset load Default", .presetLoad("Default")),
            ("preset save My Dark Pad", .presetSave("My Dark Pad")),
            ("status", .status),
            ("midi", .midi),
            ("midi cutoff 21", .midiController(.cutoff, 21)),
            ("MIDI Gain none", .midiController(.gain, nil)),
            ("midi channel 16", .midiChannel(16)),
            ("midi channel all", .midiChannel(nil)),
            ("help", .help),
            ("quit", .quit),
        ]
        for (line, command) in cases {
            #expect(try HostCommand.parse(line, table: LowpassGain.table) == command, "\(line)")
        }
    }

    @Test func parsesChainEditsWithPlugInNamesAsTyped() throws {
        let table = LowpassGain.table
        let cases: [(String, HostCommand)] = [
            ("chain", .chain(nil)),
            ("chain add builtin", .chain(.add(reference: "builtin", name: nil, position: nil))),
            ("chain add eq=http://gareus.org/oss/lv2/fil4#stereo at 2",
             .chain(.add(reference: "http://gareus.org/oss/lv2/fil4#stereo", name: "eq", position: 2))),
            ("chain add MDA Overdrive", .chain(.add(reference: "MDA Overdrive", name: nil, position: nil))),
            ("chain add  MDA   Overdrive  AT 1 ", .chain(.add(reference: "MDA   Overdrive", name: nil, position: 1))),
            ("chain remove eq", .chain(.remove("eq"))),
            ("chain move eq 3", .chain(.move("eq", to: 3))),
            ("chain rename eq tone", .chain(.rename("eq", to: "tone"))),
            ("chain add comp=ZamComp at lp>output", .chain(.insert(reference: "ZamComp", name: "comp", from: "lp", to: "output"))),
            ("chain add MDA Overdrive at input>key:sidechain",
             .chain(.insert(reference: "MDA Overdrive", name: nil, from: "input", to: "key:sidechain"))),
            ("chain connect voice comp:sidechain", .chain(.connect(from: "voice", to: "comp:sidechain"))),
            ("chain disconnect lp>output", .chain(.disconnect(from: "lp", to: "output"))),
        ]
        for (line, command) in cases { #expect(try HostCommand.parse(line, table: table) == command, "\(line)") }
        for bad in ["chain add", "chain remove", "chain move eq", "chain rename eq", "chain move eq 0", "chain add x at two", "chain swap a b",
                    "chain connect a", "chain connect a b c", "chain disconnect a>", "chain add x at >b"] {
            #expect(throws: CommandError.self, "\(bad)") { try HostCommand.parse(bad, table: table) }
        }
    }

    @Test func valuesAreReadByTheParameterTable() throws {
        for (id, text) in [(ParameterIndex.cutoff, "800 Hz"), (.cutoff, "1.2 kHz"), (.gain, "-inf"), (.gain, "+3 dB"),
                           (.resonance, "0.707 Q")] {
            #expect(try HostCommand.parse("set \(id.id) \(text)", table: LowpassGain.table) == .set(id, try Self.table(id, text)))
        }
    }

    @Test func verbsAndIdsIgnoreCaseAndSpacing() throws {
        #expect(try HostCommand.parse("  SET   Cutoff   800  ", table: LowpassGain.table) == .set(.cutoff, 800))
        #expect(try HostCommand.parse("Get\tGAIN", table: LowpassGain.table) == .get(.gain))
    }

    @Test("setting one of the processor's outputs says it is read-only, not unknown")
    func outputsAreReadOnly() throws {
        #expect(throws: CommandError.readOnly("lim.latency")) {
            try HostCommand.parse("set lim.latency 5", table: LowpassGain.table, outputs: ["lim.latency"])
        }
        #expect(throws: CommandError.self) { try HostCommand.parse("set nothing 5", table: LowpassGain.table, outputs: ["lim.latency"]) }
        #expect(try HostCommand.parse("STATUS\r", table: LowpassGain.table) == .status)
    }

    @Test func blankLinesAndCommentsAreNotCommands() throws {
        for line in ["", "   ", "\t", "# set cutoff 100", "  #note"] {
            #expect(try HostCommand.parse(line, table: LowpassGain.table) == nil)
        }
    }

    @Test func refusesBadCommandsWithOneLineEach() throws {
        let cases: [(String, CommandError)] = [
            ("bogus", .unknownCommand("bogus")),
            ("set", .usage("set ID VALUE")),
            ("set cutoff", .usage("set ID VALUE")),
            ("get", .usage("get ID")),
            ("get cutoff gain", .usage("get ID")),
            ("reset cutoff gain", .usage("reset [ID]")),
            ("preset", .usage("preset load NAME | preset save NAME")),
            ("preset delete x", .usage("preset load NAME | preset save NAME")),
            ("preset load", .usage("preset load NAME | preset save NAME")),
            ("status now", .unexpectedArguments("status")),
            ("quit please", .unexpectedArguments("quit")),
        ]
        for (line, error) in cases {
            #expect(throws: error, "\(line)") { try HostCommand.parse(line, table: LowpassGain.table) }
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func parameterErrorsAreTheTablesOwn() throws {
        for (line, id, text) in [("set cutoff 1e9", ParameterIndex.cutoff, "1e9"), ("set gain loud", .gain, "loud"),
                                 ("set resonance 0.1", .resonance, "0.1")] {
            let tableError = #expect(throws: ParameterError.self) { try LowpassGain.table[id].parse(text) }
            #expect(throws: CommandError.parameter(tableError!)) { try HostCommand.parse(line, table: LowpassGain.table) }
        }
        #expect(throws: CommandError.parameter(.unknownID("volume", valid: LowpassGain.table.textIDs))) { try HostCommand.parse("set volume 3", table: LowpassGain.table) }
        #expect(throws: CommandError.parameter(.unknownID("volume", valid: LowpassGain.table.textIDs))) { try HostCommand.parse("get volume", table: LowpassGain.table) }
        #expect(throws: CommandError.parameter(.unknownID("volume", valid: LowpassGain.table.textIDs))) { try HostCommand.parse("reset volume", table: LowpassGain.table) }
    }

    @Test func refusesBadMIDICommandsSayingWhatIsAccepted() throws {
        let cases: [(String, CommandError)] = [
            ("midi cutoff", .usage("midi | midi ID CC | midi ID none | midi channel N | midi channel all | midi save [FILE]")),
            ("midi cutoff 21 22", .usage("midi | midi ID CC | midi ID none | midi channel N | midi channel all | midi save [FILE]")),
            ("midi channel 0", .invalid("MIDI channel '0': expected 1 … 16 or all")),
            ("midi cutoff 120", .invalid("controller '120' for cutoff: expected a controller number 0 … 119 or none")),
            ("midi drive 1", .parameter(.unknownID("drive", valid: LowpassGain.table.textIDs))),
        ]
        for (line, error) in cases {
            #expect(throws: error, "\(line)") { try HostCommand.parse(line, table: LowpassGain.table) }
        }
        #expect(CommandError.invalid("MIDI channel '0': x").description == "invalid MIDI channel '0': x")
    }
}
