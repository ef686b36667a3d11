import TestSupport
import CJack
import DSP
import Foundation
import JackHost
import Parameters
import Plugins
import Testing

extension JackTests {
    /// LV2 plug-ins from Debian packages hosted live in a private JACK graph: what comes out
    /// of the ports equals the offline engine with the same plug-in, input and stamped events.
    @Suite struct LivePluginTests {
        static func processor(_ uri: String) throws -> Processor {
            try Processor.plugin(try #require(PluginCatalog.plugin(uri: uri), "\(uri) is installed"))
        }

        /// Every parameter moved three times, to positions spread over its travel (toggles and
        /// enumerations included), so no value is chosen with the plug-in's answer in mind.
        static func moves(_ table: ParameterTable) -> [(Double, [ParameterIndex: Double])] {
            [(0.2, 0.8), (0.45, 0.25), (0.7, 0.6)].map { fraction, position in
                (fraction, Dictionary(uniqueKeysWithValues: table.indices.enumerated().map { n, id in
                    (id, table[id].value(atNormalized: (position + 0.13 * Double(n)).truncatingRemainder(dividingBy: 1)))
                }))
            }
        }

        @Test(arguments: [
            "http://plugin.org.uk/swh-plugins/buttlow_iir",     // swh-lv2: mono, one instance per channel
            "http://drobilla.net/plugins/mda/Overdrive",        // mda-lv2: stereo, direct
            "http://gareus.org/oss/lv2/fil4#stereo",            // x42-plugins: 29 parameters, toggles, atom ports
            "http://lsp-plug.in/plugins/lv2/compressor_stereo", // lsp-plugins-lv2: a worker, meters
        ])
        func liveOutputEqualsTheOfflineRenderWithMovingControls(uri: String) throws {
            let processor = try Self.processor(uri)
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), processor: processor)
            let engineStart = try f.play()
            var changes: [ParameterChange] = []
            for (fraction, values) in Self.moves(processor.table) {
                try f.waitForRecording(fraction)
                changes += f.host.setStamped(values)
            }
            try f.waitForRecording(1)
            let expected = f.offlineReference(engineStart: engineStart, changes: changes)
            let recorded = f.recorder.recording
            for c in 0..<2 {
                #expect(recorded[c].contains { abs($0) > 1e-3 }, "channel \(c + 1) carries sound")
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)")
            }
            #expect(f.host.status().outputs.map(\.id) == PluginCatalog.plugin(uri: uri)!.controlOutputs.map(\.symbol))
        }

        /// A control change mapped to a plug-in's parameter lands at its frame, exactly as a
        /// queued change would; a toggle flips at 64 and an enumeration steps through its labels.
        @Test func controlChangesTurnAPlugInsParameters() throws {
            let processor = try Self.processor("http://gareus.org/oss/lv2/fil4#stereo")
            let table = processor.table
            let gain = try table.index(of: "gain"), lowPass = try table.index(of: "LowPass")
            let midi: [(frame: Int, bytes: [UInt8])] = [
                (6_001, [0xB0, 20, 30]), (9_000, [0xB0, 21, 63]), (15_000, [0xB0, 21, 64]), (21_345, [0xB0, 20, 127]),
            ]
            let controls = MIDIControls(table: table, channel: nil, controllers: [gain: 20, lowPass: 21])
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), midi: midi, midiControls: controls, processor: processor)
            let engineStart = try f.play()
            try f.waitForRecording(1)
            func value(_ id: ParameterIndex, _ v: UInt8) -> Double { table[id].value(atNormalized: Double(v) / 127) }
            let changes = midi.map { event in
                let id = event.bytes[1] == 20 ? gain : lowPass
                return ParameterChange(id, value(id, event.bytes[2]), frame: engineStart + Int64(event.frame))
            }
            #expect(value(lowPass, 63) == 0 && value(lowPass, 64) == 1, "a toggle flips at 64")
            let expected = f.offlineReference(engineStart: engineStart, changes: changes)
            let recorded = f.recorder.recording
            for c in 0..<2 {
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)")
            }
            #expect(f.host.target(lowPass) == 1)
            #expect(f.host.target(gain) == table[gain].range.upperBound)
        }

        /// Notes played into an instrument sound from their frame on: silence before the first,
        /// and the recording equals the offline engine given the same notes at the same frames.
        @Test func notesPlayAnInstrumentAtTheirFrames() throws {
            let processor = try Self.processor("http://drobilla.net/plugins/mda/Piano")
            #expect(processor.acceptsMIDI)
            let frames = LiveHostAudioTests.frames
            let notes: [(frame: Int, bytes: [UInt8])] = [
                (10_007, [0x90, 60, 100]), (20_300, [0x90, 64, 90]), (30_000, [0x80, 60, 0]), (36_789, [0x90, 67, 120]),
                (41_000, [0xB0, 64, 127]),  // the sustain pedal: unmapped, so it goes to the plug-in
            ]
            let silence = [[Float]](repeating: [Float](repeating: 0, count: frames), count: 2)
            let f = try LiveFixture(input: silence, midi: notes, processor: processor)
            let engineStart = try f.play()
            try f.waitForRecording(1)
            let recorded = f.recorder.recording
            #expect(recorded[0][..<notes[0].frame].allSatisfy { $0 == 0 }, "silent before the first note")
            #expect(recorded[0][notes[0].frame..<(notes[0].frame + 64)].contains { $0 != 0 }, "sound from the note on")

            let expected = Self.render(processor, frames: Int(engineStart) + frames, block: f.server.period,
                                       notes: notes.map { (Int(engineStart) + $0.frame, $0.bytes) })
            for c in 0..<2 {
                #expect(firstDifference(recorded[c], Array(expected[c][Int(engineStart)...])) == "none", "channel \(c + 1)")
            }
        }

        /// An instrument offline: silence in, `notes` (engine frames) handed to the engine
        /// before the block holding each, as the process callback does.
        static func render(_ processor: Processor, frames: Int, block: Int, notes: [(Int, [UInt8])]) -> [[Float]] {
            let engine = Engine(processor: processor, smoothingTime: LiveFixture.smoothing)
            try! engine.prepare(sampleRate: 48_000, maxFrames: block, channels: 2)
            let silence = [Float](repeating: 0, count: block)
            var output = [[Float]](repeating: [], count: 2)
            var left = [Float](repeating: 0, count: block), right = left
            var start = 0
            while start < frames {
                let n = min(block, frames - start)
                engine.beginMIDI()
                for (frame, bytes) in notes where frame >= start && frame < start + n {
                    bytes.withUnsafeBufferPointer { engine.addMIDI(frame: frame - start, bytes: $0.baseAddress!, size: $0.count) }
                }
                silence.withUnsafeBufferPointer { s in
                    left.withUnsafeMutableBufferPointer { l in
                        right.withUnsafeMutableBufferPointer { r in
                            var ins = [s.baseAddress!, s.baseAddress!]
                            var outs = [l.baseAddress!, r.baseAddress!]
                            engine.process(input: &ins, output: &outs, frames: n)
                        }
                    }
                }
                output[0] += left[..<n]
                output[1] += right[..<n]
                start += n
            }
            return output
        }
    }
}
