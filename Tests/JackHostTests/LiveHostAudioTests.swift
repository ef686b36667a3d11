import TestSupport
import CJack
import AudioEngine
import Foundation
import JackHost
import Testing
import Parameters

extension JackTests {
    /// The host in a real JACK graph (a private dummy server): what comes out of its ports.
    @Suite struct LiveHostAudioTests {
        static let frames = 48_000

        static func stereo() -> [[Float]] {
            let noise = Signal.noise(frames: frames, seed: 7)
            let tone = Signal.sine(frequency: 440, frames: frames)
            return [noise, zip(tone, Signal.noise(frames: frames, seed: 8)).map { $0 + 0.1 * $1 }]
        }

        @Test func liveOutputEqualsTheOfflineRenderWithTheSameEvents() throws {
            let f = try LiveFixture(input: Self.stereo(), values: [.cutoff: 2_000, .resonance: 2])
            let engineStart = try f.play()
            // JACK shows a connection from the cycle after it is made: by now the graph has settled.
            #expect(f.recorder.connections(of: "\(f.recorder.name):in_2") == ["\(f.host.clientName!):out_2"])
            var changes: [ParameterChange] = []
            let moves: [(Double, [ParameterIndex: Double])] = [
                (0.15, [.cutoff: 400]), (0.3, [.gain: -12, .resonance: 6]), (0.45, [.cutoff: 9_000]),
                (0.6, [.gain: 3]), (0.75, [.cutoff: 150, .resonance: 0.5]), (0.9, [.gain: -60]),
            ]
            // What the recorder had taken when each send returned: a change sent while the
            // recording still had three periods to go is stamped inside it (a period after the
            // send, the recorder at most a period behind the engine). (On a loaded machine
            // this thread may wake from a wait late, past the recording's end: such a change
            // is checked against the timeline alone.)
            var reached: [Int] = []
            for (fraction, values) in moves {
                try f.waitForRecording(fraction)
                let stamped = f.host.setStamped(values)
                changes += stamped
                reached += stamped.map { _ in f.recorder.recordedFrames }
            }
            try f.waitForRecording(1)
            // Every change was stamped on the engine's timeline, after the start and in order.
            #expect(changes.allSatisfy { $0.frame > engineStart })
            #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.frame <= $1.frame })
            for (change, at) in zip(changes, reached) where at + 3 * f.server.period < Self.frames {
                #expect(change.frame < engineStart + Int64(Self.frames), "sent with \(at) frames recorded, stamped at \(change.frame - engineStart)")
            }
            #expect(reached.contains { $0 + 3 * f.server.period < Self.frames }, "some change lands inside the recording")
            let expected = f.offlineReference(engineStart: engineStart, changes: changes)
            let recorded = f.recorder.recording
            for c in 0..<2 {
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)")
            }
        }

        /// A gain change from 0 dB to −20 dB on a steady tone: nothing moves before the stamp,
        /// which is one period after the send; the amplitude then glides linearly (the gain
        /// smoother is linear in amplitude) and sits exactly at a tenth after the smoothing time.
        @Test func setTakesEffectSmoothlyWithinAPeriodPlusTheSmoothingTime() throws {
            // 375 Hz repeats every 128 frames at 48 kHz: the steady output is periodic.
            let cycle = 128
            let f = try LiveFixture(input: [Signal.sine(frequency: 48_000.0 / Double(cycle), frames: Self.frames)])
            let engineStart = try f.play()
            try f.waitForRecording(0.5)
            let before = jack_frame_time(f.player.client)
            let change = try #require(f.host.setStamped([.gain: -20]).first)
            let after = jack_frame_time(f.player.client)
            try f.waitForRecording(1)

            let clock = try #require(f.host.frameClock)
            let period = Int64(f.server.period)
            #expect(change.frame >= clock.engineFrame(atJack: before) + period)
            #expect(change.frame <= clock.engineFrame(atJack: after) + period)

            let y = f.recorder.recording[0]
            let at = Int(change.frame - engineStart)
            let ramp = Int((LiveFixture.smoothing * 48_000).rounded())
            let target = Float(LowpassGain.table[.gain].engineValue(-20))
            let peak = y[(at - 4 * cycle)..<at].map(abs).max()!
            /// The steady waveform before the change, at the same phase as frame `t`.
            func reference(_ t: Int) -> Float { y[at - cycle * (1 + (t - at) / cycle) + (t - at) % cycle] }
            for t in (at - 8 * cycle)..<at {
                #expect(abs(y[t] - y[t - cycle]) <= 1e-5, "frame \(t) moved before the change")
            }
            var worstRamp: Float = 0
            for t in at..<(at + ramp) where abs(reference(t)) > 0.2 * peak {
                let expectedGain = 1 + (target - 1) * Float(t - at) / Float(ramp)
                worstRamp = max(worstRamp, abs(y[t] / reference(t) - expectedGain))
            }
            #expect(worstRamp < 2e-3, "the gain did not glide linearly over the smoothing time")
            for t in (at + ramp)..<(at + ramp + 8 * cycle) {
                #expect(abs(y[t] - target * reference(t)) <= 1e-5 * peak, "frame \(t) is not at the target")
            }
        }

        @Test func aBufferSizeChangeKeepsTheOutputExact() throws {
            let f = try LiveFixture(input: Self.stereo(), values: [.cutoff: 3_000])
            let engineStart = try f.play()
            var changes: [ParameterChange] = []
            try f.waitForRecording(0.25)
            changes += f.host.setStamped([.cutoff: 500])
            try f.waitForRecording(0.4)
            #expect(jack_set_buffer_size(f.player.client, 128) == 0)
            try waitUntil("the host sees the new buffer size") { f.host.status().bufferSize == 128 }
            try f.waitForRecording(0.6)
            changes += f.host.setStamped([.cutoff: 5_000, .gain: -6])
            try f.waitForRecording(1)
            #expect(f.player.bufferSize == 128)
            let expected = f.offlineReference(engineStart: engineStart, changes: changes)
            let recorded = f.recorder.recording
            for c in 0..<2 {
                #expect(firstDifference(recorded[c], expected[c]) == "none", "channel \(c + 1)")
            }
        }

        /// The peaks are those since the previous status: the input is loud for its first 40 %
        /// and quiet after, so a status taken in the quiet part after one taken past the loud
        /// part reports the quiet level, and would report the loud one if peaks were kept.
        @Test func statusReportsTheServerAndThePeaksSinceTheLastStatus() throws {
            let loud = Self.frames * 4 / 10
            let tone = Signal.sine(frequency: 375, frames: Self.frames, amplitude: 1)
            let input = tone.indices.map { tone[$0] * ($0 < loud ? 0.8 : 0.2) }
            let f = try LiveFixture(input: [input], values: [.cutoff: 20_000])
            _ = try f.play()
            try f.waitForRecording(0.5)
            let first = f.host.status()  // takes the peaks so far, the loud part's among them
            #expect(first.peaks[0] > 0.7)
            try f.waitForRecording(0.9)
            let status = f.host.status()
            #expect(status.server == f.server.name)
            #expect(status.client == "detent")
            #expect(status.sampleRate == 48_000)
            #expect(status.bufferSize == f.server.period)
            #expect(status.dspLoad.map { $0 >= 0 && $0 <= 100 } == true)
            #expect(status.values[.cutoff] == 20_000)
            // The peak the recorder saw over the same quiet stretch is the reported one.
            let recorded = f.recorder.recording[0][(Self.frames / 2)..<(Self.frames * 9 / 10)].map(abs).max()!
            #expect(recorded < 0.3)
            #expect(abs(status.peaks[0] - recorded) <= 0.01 * recorded)
        }

        @Test func xrunsAreCounted() throws {
            let f = try LiveFixture(input: [Signal.sine(frequency: 375, frames: Self.frames)])
            _ = try f.play()
            // A busy machine may already have caused one: count from here.
            let before = f.host.status().xruns
            let playerBefore = f.player.xruns
            f.player.stall(microseconds: 200_000)
            // The server tells every client of the stalled cycle: the host counts it as the
            // player does. (Their totals are not compared: JACK also tells a client alone of
            // its own late cycles, which a busy machine causes in either.)
            try waitUntil("the player hears of its stall") { f.player.xruns > playerBefore }
            try waitUntil("the stalled cycle is reported") { f.host.status().xruns > before }
            #expect(!f.log.all.contains { $0.contains("xrun") }, "said only where asked")
        }

        @Test("a host whose face is its log (headless, a service) says xruns there, at most a line a second")
        func xrunsAreLogged() throws {
            let f = try LiveFixture(input: [Signal.sine(frequency: 375, frames: Self.frames)], logsXruns: true)
            _ = try f.play()
            for _ in 0..<3 { f.player.stall(microseconds: 200_000) }
            try waitUntil("the stalls are told") { f.log.all.contains { $0.contains("the JACK server reported") } }
            let told = f.log.all.filter { $0.contains("the JACK server reported") }
            #expect(told.count <= 3, "\(told)")
            #expect(told[0].hasPrefix("detent: warning: the JACK server reported ") && told[0].contains("since the start)"))
        }
    }
}
