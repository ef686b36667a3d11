import TextFormats
import AudioEngine
import Testing
import Parameters
@testable import JackHost
@testable import Control

@Suite("MIDI controls: which control change turns which knob")
struct MIDIControlsTests {
    @Test("out of the box: the table's controllers, on every channel")
    func standard() {
        let controls = MIDIControls.standard(for: LowpassGain.table)
        #expect(controls.channel == nil)
        #expect(controls.controllers == [.cutoff: 74, .resonance: 71, .gain: 7])
        #expect(controls.parameter(forController: 74) == .cutoff)
        #expect(controls.parameter(forController: 1) == nil)
        #expect(controls.summary == "cutoff CC 74, resonance CC 71, gain CC 7 on all channels")
        #expect(controls.assignments == "cutoff=74, resonance=71, gain=7")
    }

    @Test("--midi-cc moves a parameter, unmaps one, and takes a controller from its standard owner")
    func assignments() throws {
        var controls = MIDIControls.standard(for: LowpassGain.table)
        try controls.assign(parsing: ["cutoff=21", "resonance = none", "GAIN=74"])
        #expect(controls.controllers == [.cutoff: 21, .gain: 74])
        #expect(controls.assignments == "cutoff=21, resonance=none, gain=74")
        // The standard owner of 74 (cutoff) had already moved; now take one from a standard owner.
        var other = MIDIControls.standard(for: LowpassGain.table)
        try other.assign(parsing: ["gain=71"])
        #expect(other.controllers == [.cutoff: 74, .gain: 71])
        #expect(other.parameter(forController: 7) == nil)
        other.channel = 10
        #expect(other.summary == "cutoff CC 74, gain CC 71 on channel 10")
        var none = MIDIControls.standard(for: LowpassGain.table)
        try none.assign(parsing: ["cutoff=none", "resonance=none", "gain=none"])
        #expect(none.summary == "no controllers mapped")
    }

    @Test("bad assignments name what was typed and why", arguments: [
        ("cutoff", "invalid --midi-cc 'cutoff': expected ID=CC, e.g. cutoff=74 or gain=none"),
        ("cutoff=120", "invalid --midi-cc 'cutoff=120': expected a controller number 0 … 119 or none"),
        ("cutoff=-1", "invalid --midi-cc 'cutoff=-1': expected a controller number 0 … 119 or none"),
        ("cutoff=7.5", "invalid --midi-cc 'cutoff=7.5': expected a controller number 0 … 119 or none"),
        ("drive=1", "invalid --midi-cc 'drive=1': unknown parameter 'drive' (valid ids: cutoff, resonance, gain)"),
    ])
    func badAssignments(text: String, message: String) {
        var controls = MIDIControls.standard(for: LowpassGain.table)
        let error = #expect(throws: MIDIControlError.self) { try controls.assign(parsing: [text]) }
        #expect(error?.description == message)
        #expect(controls == .standard(for: LowpassGain.table), "a refused assignment changes nothing")
    }

    @Test("two parameters given the same controller is an error")
    func duplicate() {
        var controls = MIDIControls.standard(for: LowpassGain.table)
        #expect(throws: MIDIControlError.invalidAssignment("gain=21", reason: "controller 21 is already given to cutoff")) {
            try controls.assign(parsing: ["cutoff=21", "gain=21"])
        }
    }

    @Test("--midi-channel takes 1…16 or all")
    func channels() throws {
        #expect(try MIDIControls.parseChannel("1") == 1)
        #expect(try MIDIControls.parseChannel(" 16") == 16)
        #expect(try MIDIControls.parseChannel("ALL") == nil)
        for bad in ["0", "17", "one", ""] {
            #expect(throws: MIDIControlError.invalidChannel(bad)) { try MIDIControls.parseChannel(bad) }
        }
        #expect(MIDIControlError.invalidChannel("17").description == "invalid --midi-channel '17': expected 1 … 16 or all")
    }

    @Test("the audio thread's table: control changes on the channel, for mapped controllers only")
    func table() throws {
        var controls = MIDIControls.standard(for: LowpassGain.table).takeover(.jump)
        controls.channel = 3
        let table = MIDIControlTable(controls)
        let cutoff = LowpassGain.table[.cutoff]
        // Channel 3 is status nibble 2.
        let lowest = table.receive(status: 0xB2, data1: 74, data2: 0)
        let low = try #require(lowest)
        #expect(low.parameter == .cutoff && low.value == cutoff.range.lowerBound)
        #expect(low.frame == ParameterChange.now && low.rampFrames == ParameterChange.defaultRamp)
        #expect(table.receive(status: 0xB2, data1: 74, data2: 127)?.value == cutoff.range.upperBound)
        // A controller value is a knob position through the taper.
        for v in [1, 64, 100] {
            #expect(table.receive(status: 0xB2, data1: 74, data2: UInt8(v))?.value == cutoff.value(atNormalized: Double(v) / 127))
        }
        #expect(table.receive(status: 0xB2, data1: 7, data2: 0)?.value == -60)
        #expect(table.receive(status: 0xB2, data1: 71, data2: 127)?.parameter == .resonance)
        #expect(table.receive(status: 0xB0, data1: 74, data2: 0) == nil, "another channel")
        #expect(table.receive(status: 0x92, data1: 74, data2: 10) == nil, "a note on")
        #expect(table.receive(status: 0xE2, data1: 0, data2: 64) == nil, "pitch bend")
        #expect(table.receive(status: 0xB2, data1: 1, data2: 64) == nil, "an unmapped controller")
        // Data bytes are 7 bits: a stray top bit is ignored rather than read past the table.
        #expect(table.receive(status: 0xB2, data1: 74 | 0x80, data2: 127 | 0x80)?.value == cutoff.range.upperBound)

        let omni = MIDIControlTable(MIDIControls.standard(for: LowpassGain.table).takeover(.jump))
        for channel in UInt8(0)...15 {
            #expect(omni.receive(status: 0xB0 | channel, data1: 7, data2: 127)?.value == 12)
        }
    }

    @Test("what the audio thread applied is published with a count, per parameter")
    func published() {
        let table = MIDIControlTable(MIDIControls.standard(for: LowpassGain.table).takeover(.jump))
        #expect(table.lastSet(.gain).generation == 0 && table.messagesApplied == 0)
        _ = table.receive(status: 0xB0, data1: 7, data2: 0)
        _ = table.receive(status: 0xB0, data1: 7, data2: 127)
        _ = table.receive(status: 0xB0, data1: 1, data2: 127)  // unmapped: heard, not applied
        let gain = table.lastSet(.gain)
        #expect(gain.generation == 2 && gain.value == 12)
        #expect(table.lastSet(.cutoff).generation == 0)
        #expect(table.messagesApplied == 2)
        #expect(table.lastHeard() == (3, 1))
    }

    @Test("MIDI learn hears every control change on the channel, mapped or not, but no mode messages")
    func heard() {
        var controls = MIDIControls.standard(for: LowpassGain.table).takeover(.jump)
        controls.channel = 1
        let table = MIDIControlTable(controls)
        #expect(table.lastHeard() == (0, 0))
        _ = table.receive(status: 0xB0, data1: 21, data2: 0)
        #expect(table.lastHeard() == (1, 21))
        _ = table.receive(status: 0xB1, data1: 22, data2: 0)   // channel 2
        _ = table.receive(status: 0x90, data1: 60, data2: 0)   // a note
        _ = table.receive(status: 0xB0, data1: UInt8(MIDIControls.controllerRange.upperBound + 1), data2: 0)  // all sound off and up
        #expect(table.lastHeard() == (1, 21))
        _ = table.receive(status: 0xB0, data1: UInt8(MIDIControls.controllerRange.upperBound), data2: 0)
        _ = table.receive(status: 0xB0, data1: 74, data2: 0)
        #expect(table.lastHeard() == (3, 74))
    }
}

extension MIDIControlTable {
    /// One three-byte message through the callback's path; the first change it makes.
    func receive(status: UInt8, data1: UInt8, data2: UInt8) -> ParameterChange? {
        guard let set = beginCycle() else { return nil }
        defer { endCycle() }
        let events = UnsafeMutablePointer<ParameterChange>.allocate(capacity: 16)
        defer { events.deallocate() }
        var count = 0
        let bytes = [status, data1, data2]
        _ = bytes.withUnsafeBufferPointer { receive(set, $0.baseAddress!, size: 3, frame: ParameterChange.now, into: events, count: &count, capacity: 16) }
        return count > 0 ? events[0] : nil
    }
}

@Suite struct MIDIMapDocumentTests {
    static let table = LowpassGain.table

    @Test("a mapping survives its JSON: sources, encodings, takeover, ranges, inversion, macros, programs")
    func roundTrip() throws {
        var controls = MIDIControls(table: Self.table, channel: 3, mappings: [
            MIDIMapping(parameter: .cutoff, source: .controller(74)),
            MIDIMapping(parameter: .cutoff, source: .controller(16), fine: true, takeover: .jump),
            MIDIMapping(parameter: .gain, source: .nrpn(1234), range: -24...0, invert: true),
            MIDIMapping(parameter: .resonance, source: .rpn(2), encoding: .signBit),
            MIDIMapping(parameter: .resonance, source: .controller(20), encoding: .twosComplement),
            MIDIMapping(parameter: .gain, source: .controller(20), encoding: .binaryOffset),
        ])
        controls.programPresets = ["Bright", "Dark"]
        controls.feedback = false
        let text = JSONWriter.text(of: controls.json, pretty: true)
        let read = try MIDIControls(json: try JSONParser.parse(Array(text.utf8)), table: Self.table)
        #expect(read == controls)
        #expect(text.contains("\"nrpn\": 1234") && text.contains("\"encoding\": \"relative-sign\""))
    }

    @Test("the short form {controllers: {id: cc}} is read too")
    func shortForm() throws {
        let json = try JSONParser.parse(Array(#"{"channel": 2, "controllers": {"cutoff": 21, "gain": "none"}}"#.utf8))
        let read = try MIDIControls(json: json, table: Self.table)
        #expect(read.channel == 2 && read.controllers == [.cutoff: 21])
    }

    @Test(arguments: [
        (#"{"mappings": [{"parameter": "volume", "controller": 7}]}"#, "mappings[0].parameter: "),
        (#"{"mappings": [{"parameter": "gain", "controller": 120}]}"#, "mappings[0].controller: expected a whole number 0 … 119"),
        (#"{"mappings": [{"parameter": "gain", "controller": 7, "nrpn": 3}]}"#, "mappings[0]: expected one of controller, nrpn or rpn"),
        (#"{"mappings": [{"parameter": "gain", "controller": 40, "fine": true}]}"#, "mappings[0].fine: a 14-bit pair needs a controller 0 … 31"),
        (#"{"mappings": [{"parameter": "gain", "nrpn": 1, "encoding": "spin"}]}"#, "mappings[0].encoding: expected one of absolute, relative-twos"),
        (#"{"mappings": [{"parameter": "cutoff", "controller": 1, "min": 5}]}"#, "mappings[0].min: expected a number in cutoff's range"),
        (#"{"mappings": [{"parameter": "cutoff", "controller": 1, "min": 900, "max": 300}]}"#, "mappings[0].min: min must be below max"),
        (#"{"channel": 17}"#, "channel: expected 1 … 16 or null"),
        (#"{"chanel": 1}"#, "chanel: unknown field"),
        (#"[1]"#, "expected an object"),
    ])
    func badDocumentsNameTheMember(text: String, message: String) throws {
        let json = try JSONParser.parse(Array(text.utf8))
        #expect {
            _ = try MIDIControls(json: json, table: Self.table)
        } throws: { error in
            (error as? MIDIMapError)?.description.hasPrefix(message) == true
        }
    }

    @Test("a 14-bit pair gives 16384 distinct positions, in order")
    func fourteenBit() {
        let controls = MIDIControls(table: Self.table, channel: nil, mappings: [
            MIDIMapping(parameter: .cutoff, source: .controller(16), fine: true, takeover: .jump),
        ])
        let table = MIDIControlTable(controls)
        var values: [Double] = []
        for msb in UInt8(0)...127 {
            _ = table.receive(status: 0xB0, data1: 16, data2: msb)
            for lsb in UInt8(0)...127 {
                if let change = table.receive(status: 0xB0, data1: 48, data2: lsb) { values.append(change.value) }
            }
        }
        #expect(values.count == 16_384)
        #expect(Set(values).count == 16_384)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        #expect(values.first == Self.table[.cutoff].range.lowerBound && values.last == Self.table[.cutoff].range.upperBound)
    }

    @Test("assigning a plain controller keeps a parameter's other mappings")
    func assignKeepsOthers() {
        var controls = MIDIControls(table: Self.table, channel: nil, mappings: [
            MIDIMapping(parameter: .cutoff, source: .controller(74)),
            MIDIMapping(parameter: .cutoff, source: .nrpn(5)),
            MIDIMapping(parameter: .gain, source: .controller(21)),
        ])
        controls.assign(.cutoff, to: 21)
        #expect(controls.mappings.map(\.source) == [.controller(21), .nrpn(5)])
        #expect(controls.controllers == [.cutoff: 21])
    }
}
