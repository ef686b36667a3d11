import TestSupport
import CJack
import Control
import AudioEngine
import Foundation
import JackHost
import Ladspa
import Parameters
import Rig
import LV2
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
            let f = try Self.expectLiveEqualsOffline(Self.processor(uri))
            #expect(f.host.status().outputs.map(\.id) == PluginCatalog.plugin(uri: uri)!.controlOutputs.map(\.symbol))
        }

        /// Plays the stereo test signal through `processor` live, moving every parameter with
        /// ``moves(_:)``, and expects the recording to carry sound and equal the offline render
        /// sample for sample; returns the fixture for further checks.
        static func expectLiveEqualsOffline(_ processor: Processor, reference: Processor? = nil,
                                            sourceLocation: SourceLocation = #_sourceLocation) throws -> LiveFixture {
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), processor: processor)
            let engineStart = try f.play()
            var changes: [ParameterChange] = []
            for (fraction, values) in moves(processor.table) {
                try f.waitForRecording(fraction)
                changes += f.host.setStamped(values)
            }
            try f.waitForRecording(1)
            let expected = f.offlineReference(engineStart: engineStart, changes: changes, processor: reference)
            let recorded = f.recorder.recording
            // Said with a difference: what the host knew then (a slot down, absurd output, xruns).
            let status = f.host.status()
            let stamps = Set(changes.map { $0.frame - engineStart }).sorted()
            let told = "faults \(status.faults), absurd \(status.absurdOutput), xruns \(status.xruns), engine start \(engineStart), changes at \(stamps)"
            for c in 0..<2 {
                #expect(recorded[c].contains { abs($0) > 1e-3 }, "channel \(c + 1) carries sound", sourceLocation: sourceLocation)
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1); \(told)", sourceLocation: sourceLocation)
            }
            return f
        }

        /// A buffer-size change while controls move: the output stays the offline render's.
        @Test func aBufferSizeChangeKeepsAPlugInsOutputExact() throws {
            let processor = try Self.processor("http://gareus.org/oss/lv2/fil4#stereo")
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), processor: processor)
            let engineStart = try f.play()
            let moves = Self.moves(processor.table)
            var changes: [ParameterChange] = []
            try f.waitForRecording(0.25)
            changes += f.host.setStamped(moves[0].1)
            try f.waitForRecording(0.4)
            #expect(jack_set_buffer_size(f.player.client, 128) == 0)
            try waitUntil("the host sees the new buffer size") { f.host.status().bufferSize == 128 }
            try f.waitForRecording(0.6)
            changes += f.host.setStamped(moves[1].1)
            try f.waitForRecording(1)
            let expected = f.offlineReference(engineStart: engineStart, changes: changes)
            let recorded = f.recorder.recording
            for c in 0..<2 {
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)")
            }
        }

        /// x42's limiter looks 64 frames ahead: `status` says so, the JACK ports carry it (a
        /// recorder after Detent can compensate), and its meters answer `get`.
        @Test func aPlugInsLatencyAndMetersAreReported() throws {
            let processor = try Self.processor("http://gareus.org/oss/lv2/dpl#stereo")
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), processor: processor)
            _ = try f.play()
            try f.waitForRecording(0.5)
            let status = f.host.status()
            #expect(status.latency == 64)
            let interpreter = CommandInterpreter(control: f.host, presets: FactoryDefaultPresets(table: processor.table))
            #expect(interpreter.respond(to: "status")?.text(processor.table).contains("latency 64 frames") == true)
            guard case .output(let latency)? = interpreter.respond(to: "get latency") else {
                Issue.record("get latency did not answer an output")
                return
            }
            #expect(latency.value == 64)
            guard case .output(let level)? = interpreter.respond(to: "get level") else {
                Issue.record("get level did not answer an output")
                return
            }
            #expect(level.value.isFinite && level.value > -60, "the limiter's level meter reads the noise")
            #expect(interpreter.respond(to: "get nosuch") == .error("unknown parameter 'nosuch' (valid ids: \(processor.table.textIDs.joined(separator: ", ")))"))

            var range = jack_latency_range_t()
            let port = try #require(jack_port_by_name(f.recorder.client, "\(f.host.clientName!):out_1"))
            try waitUntil("JACK has the port's latency") {
                jack_port_get_latency_range(port, JackCaptureLatency, &range)
                return range.min >= 64
            }
            #expect(range.min == range.max)
            let input = try #require(jack_port_by_name(f.recorder.client, "\(f.host.clientName!):in_1"))
            jack_port_get_latency_range(input, JackPlaybackLatency, &range)
            #expect(range.min >= 64)
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
            let controls = MIDIControls(table: table, channel: nil, controllers: [gain: 20, lowPass: 21]).takeover(.jump)
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
        /// An LV2 instrument, and a DSSI one (its notes go through `run_synth` as ALSA events).
        @Test(arguments: ["http://drobilla.net/plugins/mda/Piano", "dssi:2181:Xsynth"])
        func notesPlayAnInstrumentAtTheirFrames(identifier: String) throws {
            let dssi = LadspaFormat.dssi.entry(identifier: identifier)
            let processor = try dssi.map { entry throws(PluginError) in try entry.processor() } ?? Self.processor(identifier)
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

        /// Tempo live: zam's delay, synced to the beat with a divisor of 1, echoes a whole 4/4
        /// bar after the impulse. `--bpm 120` alone gives 2 s; a timebase master (`jack_transport`)
        /// rolling at 90 bpm wins over it, and the echo comes 2.667 s after. In every format the
        /// plug-in is built in: LV2 reads `time:Position`, the others their own transport.
        @Test(arguments: [nil, 90] as [Int?], ["LV2", "CLAP", "VST3", "VST2"])
        func aTempoSyncedDelayFollowsJACKsTransport(master: Int?, format: String) throws {
            let echo = master == nil ? 96_000 : 128_000
            let processor = format == "LV2" ? try Self.processor("urn:zamaudio:ZamDelay")
                : try InstalledPlugins.catalogue.find("\(format.lowercased()):ZamDelay").processor()
            let table = processor.table
            let ids = format == "LV2" ? ["sync", "div", "drywet"] : ["sync_bpm", "divisor", "dry_wet"]
            // VST2 has normalised values only: the divisor's 1 (of 1 … 5) is its 0.
            let divisor = format == "VST2" ? 0.0 : 1
            var values: [ParameterIndex: Double] = [:]
            for (id, value) in zip(ids, [1.0, divisor, 1]) { values[try #require(table.find(id), "\(format) \(id)")] = value }
            var impulse = [Float](repeating: 0, count: 48_000 * 3)
            impulse[100] = 0.9
            let f = try LiveFixture(input: [impulse, impulse], values: values, processor: processor, beatsPerMinute: 120)
            var transport: ChildProcess?
            defer {
                transport?.closeInput()
                transport?.wait()
            }
            if let master {
                var environment = ProcessInfo.processInfo.environment
                environment["JACK_DEFAULT_SERVER"] = f.server.name
                environment["JACK_NO_START_SERVER"] = "1"
                let child = try ChildProcess("/usr/bin/jack_transport", environment: environment, stdin: .pipe)
                transport = child
                child.write(Array("master\ntempo \(master)\nplay\n".utf8))
                try waitUntil("the transport rolls at \(master) bpm") { f.recorder.transportTempo == Double(master) }
            }
            _ = try f.play()
            try f.waitForRecording(1)
            let recorded = f.recorder.recording[0]
            // Fully wet: the echo alone, a few frames after the bar (the delay's own filter).
            let loudest = (1_000..<recorded.count).max { abs(recorded[$0]) < abs(recorded[$1]) }!
            #expect((0...8).contains(loudest - (100 + echo)), "\(format): the echo is \(loudest - 100) frames after the impulse")
        }

        /// A plug-in's own MIDI output live: x42's MIDI Chromatic Transpose (MIDI in and out
        /// only) turns the notes played into `midi_in` into notes 5 semitones up on
        /// `plugin_midi_out`, each at the frame it came in; controller feedback stays on
        /// `midi_out`.
        @Test func aPlugInsMIDIOutputGoesToItsOwnPort() throws {
            let processor = try Self.processor("http://gareus.org/oss/lv2/midifilter#miditranspose")
            #expect(processor.makesMIDI && processor.isMIDIOnly)
            var values: [ParameterIndex: Double] = [:]
            values[try #require(processor.table.find("transpose"))] = 5
            let notes: [(frame: Int, bytes: [UInt8])] = [
                (10_007, [0x90, 60, 100]), (20_300, [0x80, 60, 0]), (30_000, [0x91, 64, 90]), (36_789, [0x81, 64, 0]),
            ]
            let silence = [[Float]](repeating: [Float](repeating: 0, count: 48_000), count: 2)
            let f = try LiveFixture(input: silence, values: values, midi: notes, processor: processor)
            let client = try #require(f.host.clientName)
            #expect(f.recorder.ports(matching: "^\(client):.*midi").sorted()
                    == ["\(client):midi_in", "\(client):midi_out", "\(client):plugin_midi_out"])
            #expect(f.recorder.connect("\(client):plugin_midi_out", "recorder:midi_in") == 0)
            _ = try f.play()
            try f.waitForRecording(1)
            let heard = f.recorder.heardMIDI
            #expect(heard.map(\.frame) == notes.map(\.frame))
            #expect(heard.map(\.bytes) == notes.map { [$0.bytes[0], $0.bytes[1] + 5, $0.bytes[2]] })
        }

        /// A file parameter changed live, by the typed command: convoLV2 starts with an impulse
        /// response of one sample at frame 0 and is given one at frame 2000 while it runs; the
        /// impulses played before come out where they went in, those after 2000 frames later.
        @Test func aFileParameterIsChangedWhileTheHostRuns() throws {
            let folder = TemporaryFolder()
            var now = [Float](repeating: 0, count: 4_096), later = now
            now[0] = 1
            later[2_000] = 1
            let first = folder.write("now.wav", WAV.float([now]))
            let second = folder.write("later.wav", WAV.float([later]))
            let processor = try Self.processor("http://gareus.org/oss/lv2/convoLV2#Mono").settingFiles(["impulse": first])
            let spacing = 12_000, frames = 48_000 * 6
            let clicks = [Float]((0..<frames).map { $0 % spacing == 100 ? 0.8 : 0 })
            let f = try LiveFixture(input: [clicks, clicks], processor: processor)
            let interpreter = CommandInterpreter(control: f.host, presets: FactoryDefaultPresets(table: processor.table))
            #expect(interpreter.respond(to: "set impulse \(folder.file("missing.wav"))")?.text(f.host.table).hasPrefix("error: set impulse: cannot read") == true)
            _ = try f.play()
            try f.waitForRecording(0.3)
            let answer = interpreter.respond(to: "set impulse \(second)")
            #expect(answer == .file("impulse", second))
            try f.waitForRecording(1)
            let recorded = f.recorder.recording[0]
            // Where each click came out, against where it went in.
            let delays = stride(from: 100, to: frames - spacing, by: spacing).map { click in
                (click..<click + spacing - 100).max { abs(recorded[$0]) < abs(recorded[$1]) }! - click
            }
            let before = delays.prefix(4), after = delays.suffix(4)
            #expect(Set(before).count == 1 && Set(after).count == 1, "\(delays)")
            #expect(after.first! - before.first! == 2_000, "\(delays)")
        }

        /// convoLV2 convolves in blocks of the period it was given and is silent for a run of
        /// any other length (a coarse-block plug-in): its runs are never cut, neither where a
        /// knob moves nor while its gain glides, so a tone through it never drops out.
        @Test func aCoarseBlockPluginIsNeverCutWhileItsKnobsMove() throws {
            let folder = TemporaryFolder()
            var delta = [Float](repeating: 0, count: 64)
            delta[0] = 1
            let ir = folder.write("delta.wav", WAV.float([delta]))
            let processor = try Self.processor("http://gareus.org/oss/lv2/convoLV2#Mono").settingFiles(["impulse": ir])
            let tone = Signal.sine(frequency: 440, frames: 48_000 * 3, amplitude: 0.25)
            let f = try LiveFixture(input: [tone, tone], processor: processor)
            let interpreter = CommandInterpreter(control: f.host, presets: FactoryDefaultPresets(table: processor.table))
            _ = try f.play()
            for (k, gain) in [-6, 3, -12, 0, 6, -3].enumerated() {
                try f.waitForRecording(0.1 + 0.12 * Double(k))
                _ = interpreter.respond(to: "set gain \(gain)")
            }
            try f.waitForRecording(1)
            let recorded = f.recorder.recording[0]
            // After the first 0.1 s (the plug-in's start), the longest run of near silence.
            var longest = 0, run = 0
            for y in recorded.dropFirst(4_800) {
                run = abs(y) < 1e-4 ? run + 1 : 0
                longest = max(longest, run)
            }
            #expect(longest < 16, "a gap of \(longest) frames")
        }

        /// A preset that keeps a plug-in's state, loaded while the host runs, restores it: convoLV2
        /// starts with an impulse response at frame 0, and a preset whose saved state holds one
        /// at frame 2000 moves every click after the load 2000 frames later — in a chain, the
        /// slot the state names is made again and the other keeps its values.
        @Test func aPresetsStateIsRestoredWhileTheHostRuns() throws {
            let folder = TemporaryFolder()
            var now = [Float](repeating: 0, count: 4_096), later = now
            now[0] = 1
            later[2_000] = 1
            let first = folder.write("now.wav", WAV.float([now]))
            let second = folder.write("later.wav", WAV.float([later]))
            let convolver = try Self.processor("http://gareus.org/oss/lv2/convoLV2#Mono")
            let stateFolder = folder.file("Later.state")
            let saved = try PluginStates.save(try convolver.settingFiles(["impulse": second]), to: stateFolder, as: stateFolder)
            let processor = try Processor.chain([("lp", .lowpassGain), ("conv", convolver)]).settingFiles(["conv.impulse": first])
            let spacing = 12_000, frames = 48_000 * 6
            let clicks = [Float]((0..<frames).map { $0 % spacing == 100 ? 0.8 : 0 })
            let f = try LiveFixture(input: [clicks, clicks], values: [processor.table.find("lp.cutoff")!: 20_000], processor: processor)
            let interpreter = CommandInterpreter(control: f.host, presets: StatePresets(table: processor.table, state: .slots(["conv": saved])))
            _ = try f.play()
            try f.waitForRecording(0.3)
            #expect(interpreter.respond(to: "preset load Later")?.text(f.host.table).hasPrefix("preset Later") == true)
            #expect(f.host.processor.files.first?.path == nil, "the state holds its own file")
            try f.waitForRecording(1)
            let recorded = f.recorder.recording[0]
            let delays = stride(from: 100, to: frames - spacing, by: spacing).map { click in
                (click..<click + spacing - 100).max { abs(recorded[$0]) < abs(recorded[$1]) }! - click
            }
            let before = delays.prefix(4), after = delays.suffix(4)
            #expect(Set(before).count == 1 && Set(after).count == 1, "\(delays)")
            #expect(after.first! - before.first! == 2_000, "\(delays)")
        }

        /// Presets of one name, "Later", whose values are the table's defaults but for the
        /// built-in's cutoff, kept open, and whose state is `state`.
        struct StatePresets: PresetSource {
            let table: ParameterTable
            let state: SavedState
            func load(_ name: String) throws -> [ParameterIndex: Double] {
                table.complete([table.find("lp.cutoff")!: 20_000])
            }
            func save(_ name: String, values: [ParameterIndex: Double]) throws { throw PresetSourceError.cannotSave(name) }
            func stateToLoad(_ name: String) throws -> SavedState? { state }
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
                    let added = bytes.withUnsafeBufferPointer { engine.addMIDI(frame: frame - start, bytes: $0.baseAddress!, size: $0.count) }
                    #expect(added, "the synth's event input took the note")
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
