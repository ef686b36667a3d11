import TestSupport
import CJack
import Control
import AudioEngine
import Foundation
import JackHost
import Parameters
import Synchronization
import Testing

extension JackTests {
    /// Every kind of mapping driven end to end by a JACK MIDI sender of the tests' own through
    /// a private server: what the host applies, and a recording that equals the offline render
    /// of the changes each mode should make, at the frames the messages arrived.
    @Suite struct MIDIMappingTests {
        static let table = LowpassGain.table

        /// The value at normalised position `p` of `id`, as the knob has it.
        static func value(_ id: ParameterIndex, _ p: Double) -> Double { table[id].value(atNormalized: p) }

        static func check(_ f: LiveFixture, engineStart: Int64, _ changes: [ParameterChange],
                          sourceLocation: SourceLocation = #_sourceLocation) {
            let expected = f.offlineReference(engineStart: engineStart, changes: changes.map { change in
                var c = change
                c.frame += engineStart
                return c
            })
            let recorded = f.recorder.recording
            for c in recorded.indices {
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)", sourceLocation: sourceLocation)
            }
        }

        @Test func pickupWaitsUntilTheControllerPassesTheKnobThenFollows() throws {
            let knob = Self.table[.cutoff].normalized(2_000)
            let at = Int((knob * 127).rounded(.down))
            let midi: [(frame: Int, bytes: [UInt8])] = [
                (4_000, [0xB0, 74, UInt8(at - 40)]),   // far below: nothing
                (6_000, [0xB0, 74, UInt8(at - 20)]),   // still below: nothing
                (8_000, [0xB0, 74, UInt8(at + 10)]),   // passed the knob: caught
                (10_000, [0xB0, 74, UInt8(at + 30)]),  // follows
                (30_000, [0xB0, 74, UInt8(at + 20)]),  // after a typed change below it: waits again
            ]
            let controls = MIDIControls(table: Self.table, channel: nil, controllers: [.cutoff: 74])
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), values: [.cutoff: 2_000], midi: midi, midiControls: controls)
            let engineStart = try f.play()
            try f.waitForRecording(0.4)
            let typed = try #require(f.host.setStamped([.cutoff: 500]).first)
            try f.waitForRecording(1)
            #expect(typed.frame - engineStart < 30_000, "the typed change came before the last message")
            var changes = [8_000, 10_000].map { frame in
                ParameterChange(.cutoff, Self.value(.cutoff, Double(midi.first { $0.frame == frame }!.bytes[2]) / 127), frame: Int64(frame))
            }
            changes.append(ParameterChange(.cutoff, 500, frame: typed.frame - engineStart))
            Self.check(f, engineStart: engineStart, changes)
            #expect(f.host.target(.cutoff) == 500)
            #expect(f.host.status().midiMessages == 2)
            // The last message, above the typed value, waits: the host tells where it is.
            let waiting = try #require(f.host.midiPickups()[.cutoff])
            #expect(abs(waiting - Self.table[.cutoff].normalized(Self.value(.cutoff, Double(at + 20) / 127))) < 1e-9)
        }

        @Test func relativeEncodersStepFromTheKnobInEachEncoding() throws {
            let start = 2.0
            var controls = MIDIControls(table: Self.table, channel: nil, mappings: [])
            for (cc, encoding) in [(21, MIDIMapping.Encoding.twosComplement), (22, .binaryOffset), (23, .signBit)] {
                controls.add(MIDIMapping(parameter: .resonance, source: .controller(cc), encoding: encoding))
            }
            // (frame, controller, value, steps it means)
            let turns: [(Int, UInt8, UInt8, Int)] = [
                (3_000, 21, 3, 3), (5_000, 22, 62, -2), (7_000, 23, 65, -1), (9_000, 21, 125, -3),
                (11_000, 22, 70, 6), (13_000, 23, 2, 2), (15_000, 21, 0, 0), (17_000, 21, 64, -64),
            ]
            let midi = turns.map { (frame: $0.0, bytes: [0xB0, $0.1, $0.2]) }
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), values: [.resonance: start], midi: midi, midiControls: controls)
            let engineStart = try f.play()
            try f.waitForRecording(1)
            var position = Self.table[.resonance].normalized(start)
            var changes: [ParameterChange] = []
            for (frame, _, _, steps) in turns where steps != 0 {
                position = min(max(position + Double(steps) * (1.0 / 127), 0), 1)
                changes.append(ParameterChange(.resonance, Self.value(.resonance, position), frame: Int64(frame)))
            }
            Self.check(f, engineStart: engineStart, changes)
            #expect(f.host.target(.resonance) == changes.last!.value)
        }

        @Test func fourteenBitNRPNRangesInversionAndMacros() throws {
            var controls = MIDIControls(table: Self.table, channel: nil, mappings: [])
            controls.add(MIDIMapping(parameter: .cutoff, source: .controller(16), fine: true, takeover: .jump))
            controls.add(MIDIMapping(parameter: .gain, source: .nrpn(1234), takeover: .jump, range: -24...0, invert: true))
            controls.add(MIDIMapping(parameter: .resonance, source: .controller(20), takeover: .jump))
            controls.add(MIDIMapping(parameter: .cutoff, source: .controller(20), takeover: .jump, range: 200...2_000))
            let midi: [(frame: Int, bytes: [UInt8])] = [
                (3_000, [0xB0, 16, 64]), (3_001, [0xB0, 48, 37]),        // 14-bit: MSB, then LSB
                (8_000, [0xB0, 99, 9]), (8_001, [0xB0, 98, 82]),         // NRPN 9 · 128 + 82 = 1234
                (8_002, [0xB0, 6, 100]), (8_003, [0xB0, 38, 5]), (8_004, [0xB0, 96, 0]),
                (12_000, [0xB0, 20, 127]),                               // a macro: two parameters
                (16_000, [0xB0, 20, 0]),
            ]
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), midi: midi, midiControls: controls)
            let engineStart = try f.play()
            try f.waitForRecording(1)

            let gain = Self.table[.gain], cutoff = Self.table[.cutoff]
            let gainLow = gain.normalized(-24), gainHigh = gain.normalized(0)
            func gainAt(_ v: Int) -> Double { Self.value(.gain, gainLow + (gainHigh - gainLow) * (1 - Double(v) / 16_383)) }
            let cutoffLow = cutoff.normalized(200), cutoffHigh = cutoff.normalized(2_000)
            let changes = [
                ParameterChange(.cutoff, Self.value(.cutoff, Double(64 << 7) / 16_383), frame: 3_000),
                ParameterChange(.cutoff, Self.value(.cutoff, Double(64 << 7 | 37) / 16_383), frame: 3_001),
                ParameterChange(.gain, gainAt(100 << 7), frame: 8_002),
                ParameterChange(.gain, gainAt(100 << 7 | 5), frame: 8_003),
                ParameterChange(.gain, gainAt((100 << 7 | 5) + 1), frame: 8_004),
                ParameterChange(.resonance, Self.table[.resonance].range.upperBound, frame: 12_000),
                ParameterChange(.cutoff, Self.value(.cutoff, cutoffHigh), frame: 12_000),
                ParameterChange(.resonance, Self.table[.resonance].range.lowerBound, frame: 16_000),
                ParameterChange(.cutoff, Self.value(.cutoff, cutoffLow), frame: 16_000),
            ]
            Self.check(f, engineStart: engineStart, changes)
            #expect(abs(f.host.target(.cutoff) - 200) < 1e-9, "the macro's range holds the cutoff to 200 Hz … 2 kHz")
            #expect(f.host.target(.gain) == gainAt((100 << 7 | 5) + 1))
            #expect(f.host.status().midiMessages == changes.count)
        }

        @Test func aProgramChangeChoosesThePresetOfItsNumber() throws {
            var controls = MIDIControls.standard(for: Self.table)
            controls.programPresets = ["Bright", "Dark", "Warm"]
            let midi: [(frame: Int, bytes: [UInt8])] = [(2_000, [0xC0, 1]), (20_000, [0xC0, 9])]
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), midi: midi, midiControls: controls)
            let chosen = Mutex<[String]>([])
            f.host.onProgramChange { number, name in chosen.withLock { $0.append("\(number) \(name)") } }
            _ = try f.play()
            try f.waitForRecording(1)
            try waitUntil("the program change is carried out") { !chosen.withLock { $0 }.isEmpty }
            // Program 9 has no preset: nothing is loaded.
            #expect(chosen.withLock { $0 } == ["1 Dark"])
        }

        /// Typed changes (and a preset's several at once) go out on midi_out at the frame they
        /// take effect, in each mapping's resolution; a change from a controller is not sent
        /// back to it but is to another controller of the same parameter; changes closer than
        /// the rate limit are held and the latest sent when it allows.
        @Test func feedbackFollowsEveryChangeAtItsFrame() throws {
            var controls = MIDIControls(table: Self.table, channel: 2, mappings: [])
            controls.add(MIDIMapping(parameter: .cutoff, source: .controller(74), takeover: .jump))
            controls.add(MIDIMapping(parameter: .cutoff, source: .controller(16), fine: true, takeover: .jump))
            controls.add(MIDIMapping(parameter: .gain, source: .nrpn(1234), takeover: .jump, range: -24...0, invert: true))
            let midi: [(frame: Int, bytes: [UInt8])] = [(30_000, [0xB1, 74, 100])]
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), midi: midi, midiControls: controls)
            #expect(f.recorder.connect("\(f.host.clientName!):midi_out", "recorder:midi_in") == 0)
            let engineStart = try f.play()
            try f.waitForRecording(0.2)
            let first = try #require(f.host.setStamped([.cutoff: 800, .gain: -6]).first)
            try f.waitForRecording(0.4)
            let a = try #require(f.host.setStamped([.cutoff: 3_000]).first)
            try waitUntil("a has taken effect") { (f.host.frameClock?.engineFrame ?? 0) > a.frame }
            let b = try #require(f.host.setStamped([.cutoff: 5_000]).first)  // within 20 ms of a: held
            try f.waitForRecording(1)

            let heard = f.recorder.heardMIDI
            func at(_ change: ParameterChange) -> Int { Int(change.frame - engineStart) }
            func cc74(_ hz: Double) -> UInt8 { UInt8((Self.table[.cutoff].normalized(hz) * 127 + 0.5).rounded(.down)) }
            func fine(_ hz: Double) -> Int { Int((Self.table[.cutoff].normalized(hz) * 16_383 + 0.5).rounded(.down)) }
            let gain = Self.table[.gain]
            let g = (gain.normalized(-6) - gain.normalized(-24)) / (gain.normalized(0) - gain.normalized(-24))
            let nrpn = Int(((1 - g) * 16_383 + 0.5).rounded(.down))
            // At one frame, in the order of their sources' numbers.
            let expectedFirst: [(frame: Int, bytes: [UInt8])] = [
                (at(first), [0xB1, 16, UInt8(fine(800) >> 7)]), (at(first), [0xB1, 48, UInt8(fine(800) & 0x7F)]),
                (at(first), [0xB1, 74, cc74(800)]),
                (at(first), [0xB1, 99, 9]), (at(first), [0xB1, 98, 82]),
                (at(first), [0xB1, 6, UInt8(nrpn >> 7)]), (at(first), [0xB1, 38, UInt8(nrpn & 0x7F)]),
            ]
            #expect(heard.prefix(7).map(\.frame) == expectedFirst.map(\.frame))
            #expect(heard.prefix(7).map(\.bytes) == expectedFirst.map(\.bytes))
            // a at its frame; b, 20 ms (960 frames) after a at the earliest, with b's value.
            let cutoffAfter = heard.dropFirst(7).filter { $0.bytes[1] == 74 }
            #expect(cutoffAfter.first.map { $0.frame } == at(a))
            #expect(cutoffAfter.first?.bytes[2] == cc74(3_000))
            let held = cutoffAfter.dropFirst().first
            #expect(held?.bytes[2] == cc74(5_000))
            if at(b) - at(a) < 960 {
                #expect(held.map { $0.frame >= at(a) + 960 && $0.frame < at(a) + 960 + 2 * f.server.period } == true)
            } else {
                // A busy machine stamped b more than 20 ms after a: nothing to hold, b goes at its frame.
                #expect(held?.frame == at(b))
            }
            // The controller's own change is not sent back on CC 74, but goes to the 14-bit pair.
            let late = heard.filter { $0.frame >= 30_000 }
            #expect(!late.contains { $0.bytes[1] == 74 })
            #expect(late.first { $0.bytes[1] == 16 }?.frame == 30_000)
            #expect(late.first { $0.bytes[1] == 16 }?.bytes[2] == UInt8(fine(Self.value(.cutoff, 100.0 / 127)) >> 7))
        }

        /// End to end: `detent live --program-presets`, presets saved by typing, and a program
        /// change from a JACK MIDI sender that loads the second one.
        @Test func aProgramChangeLoadsItsPresetInALiveSession() throws {
            let server = try JackServer()
            defer { server.stop() }
            let player = try TestClient("player", server: server.name, midi: [(100, [0xC0, 1])])
            defer { player.close() }
            var environment = ProcessInfo.processInfo.environment
            environment["JACK_DEFAULT_SERVER"] = server.name
            let detent = try LiveProgram(["--headless", "--program-presets", "Bright,Dark", "--connect-midi", "^player:midi_out$"],
                                         environment: environment)
            try detent.waitForMessage("type 'help' for commands")
            let cutoff = Self.table[.cutoff]
            _ = try detent.ask("set cutoff 5k")
            #expect(try detent.ask("preset save Bright") == "saved preset Bright")
            _ = try detent.ask("set cutoff 300")
            #expect(try detent.ask("preset save Dark") == "saved preset Dark")
            _ = try detent.ask("set cutoff 1k")
            player.start()
            try waitUntil("program change 1 loads Dark") {
                (try? detent.ask("get cutoff")) == "cutoff=" + cutoff.format(300, ascii: true)
            }
            #expect(detent.finish() == 0)
        }
    }
}
