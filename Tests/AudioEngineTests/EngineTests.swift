import CRealtime
import Glibc
import TestSupport
import Testing
import Parameters
@testable import AudioEngine

@Suite("Engine")
struct EngineTests {
    /// A busy timeline: glides of every parameter, jumps, explicit ramps, changes at block edges.
    static let timeline: [ParameterChange] = [
        ParameterChange(.cutoff, 300, frame: 0),
        ParameterChange(.gain, -12, frame: 63),
        ParameterChange(.resonance, 6, frame: 64, rampFrames: 1_000),
        ParameterChange(.cutoff, 12_000, frame: 1_000),
        ParameterChange(.cutoff, 80, frame: 1_500),  // retarget mid-glide
        ParameterChange(.gain, 6, frame: 4_095, rampFrames: 0),
        ParameterChange(.gain, -60, frame: 4_096, rampFrames: 333),
        ParameterChange(.cutoff, 5_000, frame: 7_777, rampFrames: 0),
        ParameterChange(.resonance, 0.5, frame: 9_000, rampFrames: 7),
        ParameterChange(.gain, 0, frame: 9_001),
    ]

    @Test("output is identical for blocks of 1, 64, 256 and 4096 frames")
    func blockSizeIndependence() {
        let input = [Signal.noise(frames: 12_000, seed: 3), Signal.noise(frames: 12_000, seed: 4)]
        func render(_ block: Int) -> [[Float]] {
            EngineHarness(channels: 2, maxFrames: 4096).run(input, blockSize: block, changes: Self.timeline)
        }
        let reference = render(4096)
        for block in [1, 64, 256] {
            #expect(render(block) == reference, "block size \(block)")
        }
        // Blocks longer than maxFrames are processed in pieces, with the same result.
        #expect(EngineHarness(channels: 2, maxFrames: 100).run(input, blockSize: 4096, changes: Self.timeline) == reference)
    }

    @Test("a change at frame N first affects sample N")
    func sampleAccurate() {
        for n in [0, 1, 255, 256, 1_000] {
            let dc = [Float](repeating: 1, count: 2_000)
            let y = EngineHarness(values: [.cutoff: 20_000]).run(
                dc, blockSize: 256, changes: [ParameterChange(.gain, -60, frame: Int64(n), rampFrames: 0)])
            if n > 0 { #expect(y[n - 1] != 0, "frame \(n)") }
            #expect(y[n...].allSatisfy { $0 == 0 }, "frame \(n)")
        }
    }

    @Test("initial values apply from the first sample, with no glide from the defaults")
    func initialValues() {
        let harness = EngineHarness(values: [.gain: -60])
        #expect(harness.run(Signal.noise(frames: 512)).allSatisfy { $0 == 0 })
        let engine = Engine()
        engine.jump(.cutoff, to: 250)
        try! engine.prepare(sampleRate: 48_000, maxFrames: 64, channels: 1)
        #expect(engine.currentValue(.cutoff) == 250)
        #expect(engine.telemetry.snapshot().framesProcessed == 0)
    }

    @Test("every channel count processes each channel like a mono engine", arguments: [1, 2, 3, 4, 5, 6, 8, 9])
    func channelCounts(channels: Int) {
        let input = (0..<channels).map { Signal.noise(frames: 3_000, seed: UInt64($0 + 10)) }
        let multi = EngineHarness(channels: channels).run(input, blockSize: 128, changes: Self.timeline)
        for c in 0..<channels {
            let mono = EngineHarness(channels: 1).run([input[c]], blockSize: 128, changes: Self.timeline)[0]
            #expect(multi[c] == mono, "channel \(c) of \(channels)")
        }
    }

    @Test("NaN and infinity in the input never reach the output, and the filter recovers")
    func nonFiniteRecovery() {
        let fs = 48_000.0
        var x = Signal.sine(frequency: 440, frames: 8_192, sampleRate: fs)
        for i in 1_000..<1_100 { x[i] = i % 2 == 0 ? .nan : .infinity }
        x[3_000] = -.infinity
        x[3_001] = 3e38  // finite but overflows the filter state
        let harness = EngineHarness(sampleRate: fs, values: [.resonance: 10])
        let y = harness.run(x, blockSize: 256)
        #expect(y.allSatisfy { $0.isFinite })
        // Blocks of 256: samples 1000…1099 span blocks 3 and 4; sample 3000 is in block 11.
        #expect(harness.engine.telemetry.snapshot().nonFiniteBlocks == 3)
        // The engine promises exactly this: non-finite samples become silence, huge ones are
        // limited to ±65536. So the output equals a clean render of that input, bit for bit.
        let clean = x.map { $0.isFinite ? min(max($0, -65_536), 65_536) : 0 }
        let reference = EngineHarness(sampleRate: fs, values: [.resonance: 10]).run(clean, blockSize: 256)
        #expect(y == reference)
        // And the overload has died away well within the rest of the signal.
        let ideal = EngineHarness(sampleRate: fs, values: [.resonance: 10])
            .run(x.map { $0.isFinite && abs($0) < 1 ? $0 : 0 }, blockSize: 256)
        #expect(zip(y[7_000...], ideal[7_000...]).allSatisfy { abs($0 - $1) < 1e-3 })
    }

    @Test("reset clears the filter and restarts the timeline")
    func reset() {
        let harness = EngineHarness()
        let first = harness.run(Signal.noise(frames: 1_000))
        harness.engine.reset()
        #expect(harness.engine.framePosition == 0)
        #expect(harness.run(Signal.noise(frames: 1_000)) == first)
    }

    @Test("processing in place gives the same output")
    func inPlace() {
        let x = Signal.noise(frames: 1_024)
        let expected = EngineHarness().run(x)
        let engine = EngineHarness().engine
        var buffer = x
        buffer.withUnsafeMutableBufferPointer { b in
            var ins = [UnsafePointer(b.baseAddress!)]
            var outs = [b.baseAddress!]
            engine.process(input: &ins, output: &outs, frames: 1_024)
        }
        #expect(buffer == expected)
    }

    @Test("telemetry reports values, peaks and RMS")
    func telemetry() {
        let fs = 48_000.0
        let harness = EngineHarness(sampleRate: fs, channels: 2, values: [.cutoff: 20_000, .gain: -6])
        let x = Signal.sine(frequency: 1_000, frames: 48_000, sampleRate: fs, amplitude: 0.5)
        _ = harness.run([x, [Float](repeating: 0, count: x.count)], blockSize: 512)
        let snap = harness.engine.telemetry.snapshot()
        let g = LowpassGain.table[.gain].engineValue(-6)
        #expect(abs(snap.values[.gain]! + 6) < 1e-9)
        #expect(snap.values[.cutoff] == 20_000)
        #expect(snap.framesProcessed == 48_000)
        #expect(abs(Double(snap.peaks[0]) - 0.5 * g) < 0.01)
        #expect(snap.peaks[1] == 0)
        let rms = snap.rms(since: nil)
        #expect(abs(rms[0] - 0.5 * g / 2.0.squareRoot()) < 0.005)
        #expect(rms[1] == 0)
        // Peaks are taken by the reader: the next snapshot starts again from zero.
        #expect(harness.engine.telemetry.snapshot().peaks[0] == 0)
    }
}

@Suite("Denormals")
struct DenormalTests {
    @Test("subnormal input counts as zero")
    func subnormalInput() {
        // Made from its bits, not by arithmetic: a flush-to-zero mode left on this thread by
        // other code would make a division give 0.
        let tiny = [Float](repeating: Float(bitPattern: 0x0001_0000), count: 2_048)  // about 9e-41
        #expect(tiny[0].isSubnormal)
        let y = EngineHarness(values: [.cutoff: 20_000]).run(tiny)
        #expect(y.allSatisfy { $0 == 0 })
    }

    @Test("results that would be subnormal are flushed to zero")
    func subnormalResults() {
        // 1e-36 at −59 dB is about 1.1e-39: below the smallest normal float.
        let small = [Float](repeating: 1e-36, count: 2_048)
        #expect(!small[0].isSubnormal)
        let y = EngineHarness(values: [.cutoff: 20_000, .gain: -59]).run(small)
        #expect(y.allSatisfy { !$0.isSubnormal })
        #expect(y[1_000...].allSatisfy { $0 == 0 })
    }

    /// A rounding mode left on the caller's thread (by a plug-in, a library, a test) is not the
    /// engine's: the same render, sample for sample, and the caller's mode given back.
    @Test("a rounding mode the caller left on its thread changes nothing the engine computes")
    func roundingModeIsTheEngines() {
        let input = Signal.noise(frames: 4_096)
        let values: [ParameterIndex: Double] = [.cutoff: 800, .resonance: 4, .gain: -3]
        let first = EngineHarness(values: values), second = EngineHarness(values: values)
        let nearest = first.run(input)
        let saved = fegetround()
        fesetround(FE_TOWARDZERO)
        let towardZero = second.run(input)
        let kept = fegetround()
        fesetround(saved)
        #expect(nearest == towardZero)
        #expect(kept == FE_TOWARDZERO)
    }

    /// The thread's mode is set here first, both ways: what another test or a plug-in left on
    /// this thread must decide nothing. Arithmetic tells the mode, on any architecture.
    @Test("the caller's floating-point mode is restored after each block, whichever it was")
    func modeRestored() {
        let outer = detent_denormals_on()
        defer { detent_denormals_restore(outer) }
        let harness = EngineHarness()
        let tiny = Float.leastNormalMagnitude
        _ = harness.run(Signal.noise(frames: 512))
        // Full IEEE arithmetic still: half the smallest normal is a subnormal.
        #expect((tiny / Float(2 + harness.engine.framePosition % 1)).isSubnormal)

        _ = detent_denormals_off()
        _ = harness.run(Signal.noise(frames: 512))
        // Flushing still, as the caller had it: the same half is zero.
        #expect(tiny / Float(2 + harness.engine.framePosition % 1) == 0)
    }
}

/// After the input stops, the filter's output comes back to exact zero, and at the same
/// frames whatever the blocks: a silent tail is digital silence, for silence detection and
/// null tests, and live still equals offline.
@Suite struct DigitalSilenceTests {
    @Test(arguments: [(1, 0.707), (2, 12.0), (4, 0.5)])
    func aSilentTailBecomesExactZeroAtTheSameFramesForAnyBlocks(channels: Int, resonance: Double) {
        let burst = 4_800, tail = 48_000 * 4
        let input = (0..<channels).map { c in Signal.noise(frames: burst, seed: UInt64(c + 1)) + [Float](repeating: 0, count: tail) }
        let values: [ParameterIndex: Double] = [.cutoff: 300, .resonance: resonance, .gain: 6]
        let outputs = [256, 1_000, 37].map { blockSize in
            EngineHarness(channels: channels, values: values).run(input, blockSize: blockSize)
        }
        #expect(outputs[1] == outputs[0])
        #expect(outputs[2] == outputs[0])
        for channel in outputs[0] {
            // It rings on after the burst, then stops: the last second is all exact zeros.
            #expect(channel[burst..<burst + 480].contains { $0 != 0 })
            #expect(channel.suffix(48_000).allSatisfy { $0 == 0 })
        }
    }
}
