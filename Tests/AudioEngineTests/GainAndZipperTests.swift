import TestSupport
import Testing
import Parameters
#if canImport(Glibc)
import Glibc
#endif
@testable import AudioEngine

@Suite("Gain and smoothing in the engine")
struct GainAndZipperTests {
    /// Output of a long steady sine at a given gain, relative to 0 dB, in dB.
    func gainDB(_ db: Double) -> Double {
        let x = Signal.sine(frequency: 100, frames: 48_000, sampleRate: 48_000)
        let ref = EngineHarness(values: [.cutoff: 20_000, .gain: 0]).run(x)
        let out = EngineHarness(values: [.cutoff: 20_000, .gain: db]).run(x)
        let r = ref[24_000...].map { Double($0 * $0) }.reduce(0, +)
        let o = out[24_000...].map { Double($0 * $0) }.reduce(0, +)
        return 10 * log10(o / r)
    }

    @Test("gain is accurate in dB", arguments: [-59.0, -24, -6, -0.5, 3, 12])
    func accuracy(db: Double) {
        #expect(abs(gainDB(db) - db) < 0.001)
    }

    @Test("the minimum gain is exact silence")
    func silence() {
        let y = EngineHarness(values: [.gain: -60]).run(Signal.noise(frames: 10_000))
        #expect(y.allSatisfy { $0 == 0 })
    }

    /// Largest second difference of `y` in `range`: a click or a zipper step shows up here.
    func roughness(_ y: [Float], _ range: Range<Int>) -> Float {
        var worst: Float = 0
        for n in range.lowerBound + 2..<range.upperBound {
            worst = max(worst, abs(y[n] - 2 * y[n - 1] + y[n - 2]))
        }
        return worst
    }

    @Test("fast cutoff and gain sweeps over a sine have no discontinuities")
    func zipper() {
        let fs = 48_000.0
        let x = Signal.sine(frequency: 220, frames: 24_000, sampleRate: fs)
        func sweep(ramp: Int32) -> [Float] {
            // Eight abrupt knob moves, 50 ms apart: gain 0 → −20 → +6 dB, cutoff 200 Hz ↔ 8 kHz.
            var changes: [ParameterChange] = []
            for k in 0..<8 {
                let frame = Int64(4_000 + k * 2_400)
                changes.append(ParameterChange(.gain, k % 2 == 0 ? -20 : 6, frame: frame, rampFrames: ramp))
                changes.append(ParameterChange(.cutoff, k % 2 == 0 ? 8_000 : 200, frame: frame, rampFrames: ramp))
            }
            return EngineHarness(sampleRate: fs, values: [.cutoff: 200, .resonance: 0.707]).run(x, blockSize: 256, changes: changes)
        }
        let smooth = sweep(ramp: ParameterChange.defaultRamp)
        let abrupt = sweep(ramp: 0)
        // The steady signal's own roughness: a sine's second difference is A·ω².
        let steady = roughness(smooth, 1_000..<4_000)
        let duringSmooth = roughness(smooth, 4_000..<24_000)
        let duringAbrupt = roughness(abrupt, 4_000..<24_000)
        #expect(steady > 0)
        #expect(duringSmooth < 4 * steady, "smoothed sweeps: \(duringSmooth) vs steady \(steady)")
        #expect(duringAbrupt > 20 * steady, "the test must catch unsmoothed jumps: \(duringAbrupt)")
    }

    @Test("a change takes the engine's smoothing time to land, and lands exactly")
    func rampDuration() {
        let fs = 48_000.0
        let harness = EngineHarness(sampleRate: fs, values: [.cutoff: 20_000, .gain: 0], smoothing: 0.010)
        let dc = [Float](repeating: 1, count: 2_000)
        // Filter settles on DC first; then gain → −6 dB at frame 1000 over 480 frames.
        let y = harness.run(dc, blockSize: 64, changes: [ParameterChange(.gain, -6, frame: 1_000)])
        let target = Float(LowpassGain.table[.gain].engineValue(-6))
        #expect(abs(y[999] - 1) < 1e-6)
        #expect(y[1_000] < y[999] && y[1_000] > target)
        #expect(abs(y[1_478] - target) > 1e-5)     // still gliding one frame before the end
        #expect(abs(y[1_479] - target) < 1e-6)     // landed on frame 1000 + 480 − 1
        #expect(y[1_479...].allSatisfy { abs($0 - target) < 1e-6 })
    }
}
