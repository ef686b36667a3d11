import Control
import TestSupport
import CRealtime
import AudioEngine
import Isolation
import Foundation
import Testing
import Parameters
import LV2

/// Whether clang's RealtimeSanitizer runtime is linked into this test binary (the CI step
/// links it in; see `.ci/run`).
enum RealtimeSanitizer {
    static var isLinked: Bool { dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__rtsan_realtime_enter") != nil }
    static let probeVariable = "DETENT_RTSAN_PROBE"
    static var isProbe: Bool { ProcessInfo.processInfo.environment[probeVariable] == "1" }
}

extension JackTests {
    /// The process callback under load: for the first second a MIDI control change arrives
    /// every 100 frames, then parameters move at 1 kHz through the queue for three seconds,
    /// while noise plays through the host. Linked with RealtimeSanitizer, any allocation,
    /// lock or blocking call inside the callback aborts the run; in any build, every MIDI
    /// message must be counted and the last value of every parameter must arrive exactly.
    @Suite struct RealtimeCallbackTests {
        /// Calls `body` with 0, 1, 2… once a millisecond on the monotonic clock, for `seconds`.
        static func everyMillisecond(for seconds: Int, _ body: (Int) -> Void) {
            onTicks(everyNanoseconds: 1_000_000, count: 1_000 * seconds) { i in body(i); return false }
        }

        @Test func parametersMovingAt1kHzReachTheirLastValues() throws {
            let seconds = 3
            let controllers = LowpassGain.table.ids.map { UInt8(LowpassGain.table[$0].midiController!) }
            let midi = (0..<480).map { k in
                (frame: 100 * k, bytes: [0xB0, controllers[k % controllers.count], UInt8((k * 7) % 128)])
            }
            let f = try LiveFixture(input: [Signal.noise(frames: 48_000 * (seconds + 2), seed: 3),
                                            Signal.noise(frames: 48_000 * (seconds + 2), seed: 4)], midi: midi)
            _ = try f.play()
            // Every cycle of the callback is a real-time region: without that mark the
            // sanitizer would watch nothing, and this run would pass whatever the callback did.
            let regions = detent_realtime_regions(), played = f.player.playedFrames
            try waitUntil("the MIDI second has played") { f.player.playedFrames >= 48_000 + f.server.period }
            let cycles = (f.player.playedFrames - played) / f.server.period
            #expect(detent_realtime_regions() - regions >= UInt(max(0, cycles - 2)), "the process callback marks each cycle real-time")
            #expect(f.host.status().midiMessages == midi.count)
            var last: [ParameterIndex: Double] = [:]
            let cutoff = LowpassGain.table[.cutoff], resonance = LowpassGain.table[.resonance], gain = LowpassGain.table[.gain]
            Self.everyMillisecond(for: seconds) { i in
                let phase = Double(i) / 1_000
                let values: [ParameterIndex: Double] = switch i % 3 {
                case 0: [.cutoff: cutoff.value(atNormalized: 0.5 + 0.45 * sin(2 * .pi * phase))]
                case 1: [.resonance: resonance.value(atNormalized: 0.5 + 0.5 * sin(2 * .pi * 0.7 * phase))]
                default: [.gain: gain.value(atNormalized: 0.6 + 0.4 * sin(2 * .pi * 1.3 * phase))]
                }
                f.host.setStamped(values)
                last.merge(values) { $1 }
            }
            // Gain travels as an amplitude: compare in the engine's domain.
            try waitUntil("every parameter reaches its last value") {
                let values = f.host.status().values
                return values[.cutoff] == last[.cutoff] && values[.resonance] == last[.resonance]
                    && gain.engineValue(values[.gain]!) == gain.engineValue(last[.gain]!)
            }
            // The callback ran through the whole time the parameters moved: the dummy driver
            // may lag wall time on a busy machine, so wait for the frames rather than assume them.
            try waitUntil("the audio ran for the whole run") { f.player.playedFrames >= 48_000 * seconds }
        }

        /// The plug-in path: the kernel around a plug-in's `run` (control ports, buffers, the
        /// MIDI sequence an instrument reads, the worker's rings) under the same watch, with
        /// every parameter moving at 1 kHz and, for the instrument and the MIDI transposer, a
        /// note every 100 frames.
        /// The plug-ins are ones whose own `run` is real-time safe: mda's Piano, for one, is
        /// not (its `run` calls `printf` for some notes, which allocates stdio's buffer), and
        /// this test stopped on it.
        @Test(arguments: ["http://plugin.org.uk/swh-plugins/buttlow_iir", "http://drobilla.net/plugins/mda/EPiano",
                          "http://gareus.org/oss/lv2/midifilter#miditranspose"])
        func aPlugInWithMovingControlsAndNotesStaysRealtimeSafe(uri: String) throws {
            let seconds = 2
            let processor = try LivePluginTests.processor(uri)
            let table = processor.table
            let notes: [(frame: Int, bytes: [UInt8])] = (0..<480).map { (k: Int) in
                let status: UInt8 = k % 2 == 0 ? 0x90 : 0x80
                return (frame: 100 * k, bytes: [status, UInt8(48 + (k / 2) % 24), 100])
            }
            let f = try LiveFixture(input: [Signal.noise(frames: 48_000 * (seconds + 2), seed: 5),
                                            Signal.noise(frames: 48_000 * (seconds + 2), seed: 6)],
                                    midi: processor.acceptsMIDI ? notes : [], processor: processor)
            _ = try f.play()
            var last: [ParameterIndex: Double] = [:]
            Self.everyMillisecond(for: seconds) { i in
                let id = ParameterIndex(i % table.count)
                let value = table[id].value(atNormalized: 0.5 + 0.45 * sin(2 * .pi * Double(i) / 1_000))
                f.host.setStamped([id: value])
                last[id] = table[id].clamp(value)
            }
            try waitUntil("every parameter reaches its last value") {
                let values = f.host.status().values
                return last.allSatisfy { id, v in abs(values[id]! - v) <= 1e-9 * max(1, abs(v)) }
            }
            try waitUntil("the audio ran for the whole run") { f.player.playedFrames >= 48_000 * seconds }
            // (A MIDI-only plug-in's notes go to plugin_midi_out, gathered and written in the callback.)
            if !processor.isMIDIOnly { #expect(f.recorder.recording[0].prefix(48_000 * seconds).contains { $0 != 0 }) }
        }

        /// JACK's transport under the same watch: a timebase master (`jack_transport`) changes
        /// the tempo twenty times, stops, starts and moves the transport, while zam's
        /// tempo-synced delay runs, so the callback tells the plug-in each time.
        @Test func aChangingTransportStaysRealtimeSafe() throws {
            let processor = try LivePluginTests.processor("urn:zamaudio:ZamDelay")
            // Room for twenty tempo changes on a busy machine: the recorder stops at the input's end,
            // and each change waits for cycles recorded after it.
            let f = try LiveFixture(input: [Signal.noise(frames: 48_000 * 30, seed: 7), Signal.noise(frames: 48_000 * 30, seed: 8)],
                                    processor: processor, beatsPerMinute: 120)
            var environment = ProcessInfo.processInfo.environment
            environment["JACK_DEFAULT_SERVER"] = f.server.name
            environment["JACK_NO_START_SERVER"] = "1"
            let transport = try ChildProcess("/usr/bin/jack_transport", environment: environment, stdin: .pipe)
            defer {
                transport.closeInput()
                transport.wait()
            }
            _ = try f.play()
            transport.write(Array("master\nplay\n".utf8))
            for k in 0..<20 {
                let bpm = 80 + 7 * k
                transport.write(Array(("tempo \(bpm)\n" + (k % 5 == 4 ? "stop\nplay\n" : "") + (k % 7 == 3 ? "locate 2\n" : "")).utf8))
                try waitUntil("the transport rolls at \(bpm) bpm") { f.recorder.transportTempo == Double(bpm) }
                let frame = f.recorder.recordedFrames
                try waitUntil("the host ran a few cycles at it") { f.recorder.recordedFrames >= frame + 4 * f.server.period }
            }
            #expect(f.recorder.recording[0].contains { $0 != 0 })
        }

        /// Chain edits under the same watch: slots added, moved and removed twenty times while
        /// audio runs and knobs move, so the fades and every take-over (values, filter state,
        /// delay lines and queued changes handed from engine to engine) run in the callback.
        @Test func chainEditsWhileAudioRunsStayRealtimeSafe() throws {
            let seconds = 2
            let chain = try Processor.chain([("a", .lowpassGain), ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive"))])
            let f = try LiveFixture(input: [Signal.noise(frames: 48_000 * (seconds + 2), seed: 7),
                                            Signal.noise(frames: 48_000 * (seconds + 2), seed: 8)], processor: chain)
            f.host.allowChainEdits(resolve: { _ in .lowpassGain }, changed: { _ in })
            _ = try f.play()
            for round in 0..<20 {
                _ = try f.host.editChain(.add(reference: "builtin", name: "n\(round)", position: 1 + round % 3))
                let table = f.host.table
                f.host.set([try table.index(of: "n\(round).cutoff"): 500 + 100 * Double(round)])
                _ = try f.host.editChain(.move("drive", to: 1 + (round + 1) % 3))
                _ = try f.host.editChain(.remove("n\(round)"))
            }
            #expect(f.host.processor.slots.map(\.name).sorted() == ["a", "drive"])
            try waitUntil("the audio ran for the whole run") { f.player.playedFrames >= 48_000 * seconds }
            #expect(f.recorder.recording[0].prefix(48_000 * seconds).contains { $0 != 0 })
        }

        /// A graph under the same watch: parallel branches, a delayed path (a lookahead
        /// limiter beside a dry one), a side chain fed by a named input's ports, every knob
        /// moving at 1 kHz.
        /// Isolated slots: the proxy copies the block in and out and makes the futex wake and
        /// bounded wait (allowed by name), nothing else, with knobs moving at 1 kHz, MIDI on
        /// its way, and a slot restarted in the middle.
        @Test func anIsolatedChainStaysRealtimeSafe() throws {
            let launcher = SlotLauncher(program: try BuiltProducts.detent)
            let chain = try Processor.chain([
                ("lp", .lowpassGain), ("drive", try LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("comp", try LivePluginTests.processor("http://lsp-plug.in/plugins/lv2/compressor_stereo")),
            ]).isolated(launcher)
            try Self.playsWithMovingKnobs(chain) { _ in true }
        }

        /// Isolated slots in a row in one sandbox run on one request (the proxies' chained run):
        /// only the built-in's rows move, so the plug-ins' runs are chained, and a restart of
        /// the sandbox comes in the middle.
        @Test func aSandboxsChainedRunStaysRealtimeSafe() throws {
            var launcher = SlotLauncher(program: try BuiltProducts.detent)
            launcher.plan = .together
            let chain = try Processor.chain([
                ("lp", .lowpassGain), ("drive", try LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("eq", try LivePluginTests.processor("http://plugin.org.uk/swh-plugins/dj_eq")),
            ]).isolated(launcher)
            try Self.playsWithMovingKnobs(chain) { $0.id.hasPrefix("lp.") }
        }

        /// Plays two seconds of noise through `chain` live, the continuous rows `moving` picks
        /// moved every millisecond and slot `drive` restarted halfway; the audio runs throughout
        /// and no slot is left at fault.
        static func playsWithMovingKnobs(_ chain: Processor, moving picks: (ParameterSpec) -> Bool) throws {
            let seconds = 2
            let frames = 48_000 * (seconds + 2)
            let f = try LiveFixture(input: [Signal.noise(frames: frames, seed: 5), Signal.noise(frames: frames, seed: 6)],
                                    processor: chain)
            _ = try f.play()
            let table = chain.table
            let moving = table.indices.filter { table[$0].kind == .continuous && picks(table[$0]) }
            everyMillisecond(for: seconds) { i in
                let id = moving[i % moving.count]
                f.host.set([id: table[id].range.lowerBound + (table[id].range.upperBound - table[id].range.lowerBound) * Double(i % 97) / 96])
                if i == 1_000 { _ = try? f.host.restartSlot("drive") }
            }
            try waitUntil("the audio ran for the whole run") { f.player.playedFrames >= 48_000 * seconds }
            #expect(f.recorder.recording[0].prefix(48_000 * seconds).contains { $0 != 0 })
            #expect(f.host.status().faults.isEmpty)
        }

        @Test func aGraphWithASideChainStaysRealtimeSafe() throws {
            let seconds = 2
            let parts = [("lp", Processor.lowpassGain), ("lim", try LivePluginTests.processor("http://gareus.org/oss/lv2/dpl#stereo")),
                         ("comp", try LivePluginTests.processor("urn:zamaudio:ZamCompX2"))]
            let (order, routing) = try Processor.routing(slots: parts.map(\.0), connections: [
                ("input", "lp"), ("input", "lim"), ("lp", "comp"), ("lim", "comp"), ("key", "comp:sidechain"),
                ("comp", "output"), ("input", "output"),
            ], sideInputs: parts.map(\.1.sideInputs))
            let graph = try Processor.graph(order.map { parts[$0] }, routing: routing)
            let frames = 48_000 * (seconds + 2)
            let f = try LiveFixture(input: [Signal.noise(frames: frames, seed: 7), Signal.noise(frames: frames, seed: 8)],
                                    processor: graph, key: Signal.noise(frames: frames, seed: 9))
            _ = try f.play()
            let table = graph.table
            let moving = table.indices.filter { table[$0].kind == .continuous }
            Self.everyMillisecond(for: seconds) { i in
                let id = moving[i % moving.count]
                f.host.set([id: table[id].range.lowerBound + (table[id].range.upperBound - table[id].range.lowerBound) * Double(i % 97) / 96])
            }
            // Edits while it plays: a slot on a connection, a new named input, a branch made
            // and taken away, a connection undone, the slot out again; each fades on the audio
            // thread, slots and connections alike.
            f.host.allowChainEdits(resolve: { _ in .lowpassGain }, changed: { _ in })
            for edit: ChainRequest in [.insert(reference: "builtin", name: "n", from: "lp", to: "comp"), .connect(from: "voice", to: "n"),
                                       .insert(reference: "builtin", name: "b", from: "input", to: "output"), .remove("b"),
                                       .disconnect(from: "voice", to: "n"), .remove("n")] {
                _ = try f.host.editChain(edit)
            }
            try waitUntil("the audio ran for the whole run") { f.player.playedFrames >= 48_000 * seconds }
            #expect(f.recorder.recording[0].prefix(48_000 * seconds).contains { $0 != 0 })
        }
    }
}

/// Proves the sanitizer set-up catches what it should: a child run of this binary
/// allocates inside a region marked real-time, and must be stopped with a report.
@Suite struct RealtimeSanitizerProbeTests {
    @Test(.enabled(if: RealtimeSanitizer.isLinked && !RealtimeSanitizer.isProbe))
    func anAllocationInTheRealtimeRegionIsReported() throws {
        let child = try ChildProcess.run(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
            ["--testing-library", "swift-testing", "--filter", "allocateInsideTheRealtimeRegion"],
            environment: ProcessInfo.processInfo.environment.merging([RealtimeSanitizer.probeVariable: "1"]) { $1 })
        let report = child.stderrText
        #expect(child.status.exited != 0)
        #expect(report.contains("RealtimeSanitizer: unsafe-library-call"))
        // Swift's own allocator is caught: its heap calls go through the interceptors.
        #expect(report.contains("in real-time context"))
        #expect(report.contains("swift_slowAlloc"))
    }

    /// Runs only as the probe's child.
    @Test(.enabled(if: RealtimeSanitizer.isProbe))
    func allocateInsideTheRealtimeRegion() {
        detent_rtsan_enter()
        let p = UnsafeMutablePointer<Int>.allocate(capacity: 16)
        detent_rtsan_exit()
        p.deallocate()
        Issue.record("the allocation was not reported")
    }
}
