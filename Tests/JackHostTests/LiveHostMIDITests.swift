import Live
import TestSupport
import CJack
import Control
import AudioEngine
import Foundation
import JackHost
import Testing
import Parameters

extension JackTests {
    /// MIDI control changes into the host's `midi_in`, through a real JACK graph: the player
    /// sends them at chosen frames of its signal, and the recording must equal the offline
    /// engine with the same changes queued at the same frames.
    @Suite struct LiveHostMIDITests {
        /// The parameter value a controller value stands for: the knob position v/127.
        static func value(_ id: ParameterIndex, _ v: UInt8) -> Double {
            LowpassGain.table[id].value(atNormalized: Double(v) / 127)
        }

        @Test func controlChangesLandAtTheirFrameExactlyAsQueuedChangesWould() throws {
            let midi: [(frame: Int, bytes: [UInt8])] = [
                (5_037, [0xB0, 74, 20]),    // cutoff, inside a period
                (5_100, [0xB0, 7, 90]),     // gain, the same period
                (12_345, [0xBF, 71, 127]),  // resonance, channel 16
                (20_001, [0xB3, 74, 127]),  // cutoff up to the top
                (30_000, [0x90, 74, 10]),   // a note on: not a control change
                (30_500, [0xB0, 1, 64]),    // the mod wheel: not mapped
                (40_000, [0xB0, 74, 64]),   // cutoff to the middle of the knob
            ]
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), values: [.cutoff: 2_000], midi: midi)
            let engineStart = try f.play()
            try f.waitForRecording(1)

            var changes: [ParameterChange] = []
            for event in midi where event.bytes[0] & 0xF0 == 0xB0 {
                guard let id = LowpassGain.table.ids.first(where: { LowpassGain.table[$0].midiController == Int(event.bytes[1]) })
                else { continue }
                changes.append(ParameterChange(id, Self.value(id, event.bytes[2]), frame: engineStart + Int64(event.frame)))
            }
            #expect(changes.count == 5)
            let expected = f.offlineReference(engineStart: engineStart, changes: changes)
            let recorded = f.recorder.recording
            for c in 0..<2 {
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)")
            }
            // What `get` answers and the panel's knobs follow.
            #expect(f.host.target(.cutoff) == Self.value(.cutoff, 64))
            #expect(f.host.target(.resonance) == 10)
            #expect(f.host.target(.gain) == Self.value(.gain, 90))
            #expect(f.host.status().midiMessages == 5)
            // Every control change counts for MIDI learn, the unmapped mod wheel too.
            #expect(f.host.lastMIDIControl()?.count == 6 && f.host.lastMIDIControl()?.controller == 74)
        }

        /// The mapping given at start (the options), or changed while running (`midi` typed).
        @Test(arguments: [false, true])
        func aChannelAndRemappedControllersAreObeyed(changedWhileRunning: Bool) throws {
            var controls = MIDIControls.standard(for: LowpassGain.table).takeover(.jump)
            controls.channel = 2
            try controls.assign(parsing: ["gain=1"])
            controls.setTakeover(.jump)
            let midi: [(frame: Int, bytes: [UInt8])] = [
                (1_000, [0xB0, 74, 0]),    // channel 1: not listened to
                (2_000, [0xB1, 7, 0]),     // CC 7 no longer turns the gain
                (3_000, [0xB1, 1, 0]),     // CC 1 does: silence
                (4_000, [0xB1, 74, 127]),  // cutoff on channel 2
            ]
            let f = try LiveFixture(input: [Signal.sine(frequency: 375, frames: 8_000)], midi: midi,
                                    midiControls: changedWhileRunning ? .standard(for: LowpassGain.table) : controls)
            if changedWhileRunning {
                #expect(f.host.midiControls == .standard(for: LowpassGain.table))
                #expect(f.host.updateMIDIControls { $0 = controls } == controls)
            }
            #expect(f.host.midiControls == controls)
            _ = try f.play()
            try f.waitForRecording(1)
            #expect(f.host.target(.gain) == -60)
            #expect(f.host.target(.cutoff) == 20_000)
            #expect(f.host.target(.resonance) == LowpassGain.table[.resonance].defaultValue)
            #expect(f.host.status().midiMessages == 2)
            // Silence from the smoothing time after CC 1 on.
            let settled = 3_000 + Int((LiveFixture.smoothing * 48_000).rounded())
            #expect(f.recorder.recording[0][settled...].allSatisfy { $0 == 0 })
            #expect(f.recorder.recording[0][..<3_000].contains { abs($0) > 0.1 }, "sound before the gain went down")
        }

        @Test func aTypedValueAfterAControllerWinsOverIt() throws {
            let f = try LiveFixture(input: [Signal.sine(frequency: 375, frames: 8_000)], midi: [(1_000, [0xB0, 74, 0])])
            _ = try f.play()
            try f.waitForRecording(1)
            f.host.set([.cutoff: 5_000])
            #expect(f.host.target(.cutoff) == 5_000)
            #expect(f.host.status().midiMessages == 1)
        }

        @Test func withoutMIDIThereIsNoMIDIPort() throws {
            let server = try JackServer(period: 256)
            defer { server.stop() }
            var options = LiveHostOptions()
            options.server = server.name
            options.midi = nil
            let host = LiveHost(options: options, log: { _ in })
            try host.start()
            defer { host.stop() }
            let probe = try TestClient("probe", server: server.name)
            defer { probe.close() }
            #expect(probe.ports(matching: "^detent:").sorted() == ["detent:in_1", "detent:in_2", "detent:out_1", "detent:out_2"])
            #expect(host.midiControls == nil)
            #expect(host.lastMIDIControl() == nil)
            #expect(host.updateMIDIControls { $0 = .standard(for: LowpassGain.table) } == nil, "no port to map")
            host.stop()
            var withMIDI = options
            withMIDI.midi = .standard(for: LowpassGain.table)
            let other = LiveHost(options: withMIDI, log: { _ in })
            try other.start()
            defer { other.stop() }
            #expect(probe.ports(matching: "^detent:midi").sorted() == ["detent:midi_in", "detent:midi_out"])
        }
    }
}
