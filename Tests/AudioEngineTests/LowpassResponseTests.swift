import TestSupport
import Testing
import Parameters
#if canImport(Glibc)
import Glibc
#endif
@testable import AudioEngine

/// The filter's magnitude response against the analytic bilinear-transformed 2-pole
/// lowpass with prewarping at the cutoff (the RBJ cookbook lowpass).
@Suite("Lowpass magnitude response")
struct LowpassResponseTests {
    /// |DTFT| in dB of an impulse response at frequency `f`.
    static func measuredDB(_ h: [Float], frequency f: Double, sampleRate fs: Double) -> Double {
        let w = 2 * Double.pi * f / fs
        var re = 0.0, im = 0.0
        for (n, x) in h.enumerated() {
            re += Double(x) * cos(w * Double(n))
            im -= Double(x) * sin(w * Double(n))
        }
        return 20 * log10((re * re + im * im).squareRoot())
    }

    @Test("matches the analytic response within 0.05 dB", arguments: [44_100.0, 48_000, 96_000], [0.707, 4.0])
    func response(sampleRate: Double, q: Double) {
        for cutoff in [100.0, 1_000, 10_000] {
            let harness = EngineHarness(sampleRate: sampleRate, values: [.cutoff: cutoff, .resonance: q, .gain: 0])
            // Long enough for the slowest (100 Hz, Q 4) response to decay below float noise.
            let h = harness.run(Signal.impulse(frames: 1 << 16), blockSize: 4096)
            var checked = 0
            for i in 0..<24 {
                // Log-spaced from 20 Hz to 0.45·fs.
                let f = 20 * pow(0.45 * sampleRate / 20, Double(i) / 23)
                let expected = CookbookLowpass.decibels(at: f, cutoff: cutoff, q: q, sampleRate: sampleRate)
                guard expected > -100 else { continue }
                let measured = Self.measuredDB(h, frequency: f, sampleRate: sampleRate)
                #expect(abs(measured - expected) < 0.05, "fs \(sampleRate) fc \(cutoff) Q \(q) f \(f): \(measured) vs \(expected)")
                checked += 1
            }
            #expect(checked >= 20)
        }
    }

    @Test("a cutoff far above Nyquist is clamped just below it, at any sample rate",
          arguments: [8_000.0, 22_050, 44_100, 192_000, 384_000])
    func clampedBelowNyquist(sampleRate: Double) {
        let c = Lowpass.Coefficients(cutoff: 20_000, q: 0.707, sampleRate: sampleRate)
        let limit = Lowpass.Coefficients(cutoff: Lowpass.maximumCutoffRatio * sampleRate, q: 0.707, sampleRate: sampleRate)
        if 20_000 > Lowpass.maximumCutoffRatio * sampleRate {
            #expect(c == limit)
        }
        #expect(c.k1[0].isFinite && c.k1[0] < 0)
        for k in [c.k2[0], c.k3[0]] { #expect(k.isFinite && k > 0) }
        // The filter stays stable: white noise in, bounded output.
        let harness = EngineHarness(sampleRate: sampleRate, values: [.cutoff: 20_000, .resonance: 10])
        let y = harness.run(Signal.noise(frames: 20_000))
        #expect(y.allSatisfy { $0.isFinite && abs($0) < 50 })
    }

    /// The lowest cutoff at a high sample rate is where single-precision direct-form filters
    /// lose their poles: the state update's coefficients are tiny next to 1 (here
    /// g ≈ 3·10⁻⁴). The state-variable form keeps them, in any grouping of its update.
    @Test("the lowest cutoff stays accurate at 192 kHz", arguments: [0.707, 4.0])
    func lowestCutoff(q: Double) {
        let fs = 192_000.0
        let cutoff = LowpassGain.table[.cutoff].range.lowerBound
        let harness = EngineHarness(sampleRate: fs, values: [.cutoff: cutoff, .resonance: q, .gain: 0])
        let h = harness.run(Signal.impulse(frames: 1 << 19), blockSize: 4096)
        for f in [0.0, 5, 10, 15, 20, 25, 30, 40, 60, 100, 200] {
            let expected = CookbookLowpass.decibels(at: f, cutoff: cutoff, q: q, sampleRate: fs)
            let measured = Self.measuredDB(h, frequency: f, sampleRate: fs)
            #expect(abs(measured - expected) < 0.05, "fc \(cutoff) Q \(q) f \(f): \(measured) vs \(expected)")
        }
    }

    @Test("DC passes at unity gain; resonance peaks by Q at the cutoff")
    func dcAndPeak() {
        let fs = 48_000.0
        let harness = EngineHarness(sampleRate: fs, values: [.cutoff: 1_000, .resonance: 4])
        let h = harness.run(Signal.impulse(frames: 1 << 15), blockSize: 4096)
        #expect(abs(Self.measuredDB(h, frequency: 0, sampleRate: fs)) < 0.001)
        // At the cutoff the analog prototype's gain is exactly Q (bilinear with prewarping keeps it).
        #expect(abs(Self.measuredDB(h, frequency: 1_000, sampleRate: fs) - 20 * log10(4)) < 0.01)
    }
}
