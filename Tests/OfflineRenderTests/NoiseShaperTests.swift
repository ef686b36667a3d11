import Testing
import TestSupport
@testable import OfflineRender

@Suite("Quantizer: shaped dither")
struct NoiseShaperTests {
    /// Wannamaker's nine F-weighted coefficients (JAES 1992), as published.
    static let published = [2.412, -3.370, 3.937, -4.174, 3.353, -2.205, 1.281, -0.569, 0.0847]

    /// Interleaved `samples` through a shaped ``Quantizer``, handed over in pieces of the given
    /// sizes (the rest in one piece).
    func quantize(_ samples: [Float], channels: Int, bits: Int = 16, sampleRate: Int = 44_100,
                  seed: UInt64 = 1, pieces: [Int] = []) -> ([Int32], Int64) {
        var q = Quantizer(bits: bits, dither: .shaped, channels: channels, sampleRate: sampleRate, seed: seed)
        return (q.quantize(samples, pieces: pieces), q.clipped)
    }

    /// The rule, one sample at a time: for sample k of channel c, `v = x·2^(bits−1) − Σ hⱼ·e`
    /// over the channel's last nine errors (newest first), rounded after adding draw k
    /// (as a Float), clipped and counted; its error `e = round − v` (0 when beyond ±2). An
    /// exact 0 is written as 0 and its error is 0.
    func reference(_ samples: [Float], channels: Int, bits: Int, seed: UInt64) -> ([Int32], Int64) {
        let scale = Double(1 << (bits - 1))
        var errors = [[Double]](repeating: [], count: channels)
        var clipped: Int64 = 0
        let out = samples.enumerated().map { k, x -> Int32 in
            let c = k % channels
            var y: Int32 = 0, e = 0.0
            if x != 0 {
                var v = Double(x) * scale
                for (j, h) in Self.published.enumerated() where j < errors[c].count { v -= h * errors[c][j] }
                let w = Float(v + Double(QuantizerTests.draw(UInt64(k), seed: seed)))
                let rounded = Double(w).rounded(.toNearestOrEven)
                e = rounded - v
                if !(abs(e) <= 2) { e = 0 }
                let clamped = min(max(rounded, -scale), scale - 1)
                if clamped != rounded { clipped += 1 }
                y = Int32(clamped) << (32 - bits)
            }
            errors[c].insert(e, at: 0)
            return y
        }
        return (out, clipped)
    }

    /// Quiet noise, loud noise that clips, and runs of exact zeros, interleaved.
    func material(frames: Int, channels: Int, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<frames * channels).map { k in
            switch (k / (channels * 500)) % 4 {
            case 0: Float(random.double(in: -1...1)) * 0x1p-13
            case 1: Float(random.double(in: -1.2...1.2))
            case 2: 0
            default: Float(random.double(in: -1...1)) * 0.01
            }
        }
    }

    @Test("follows its definition sample for sample, in any pieces", arguments: [(1, 16), (2, 16), (3, 8)])
    func matchesDefinition(channels: Int, bits: Int) {
        let samples = material(frames: 4_000, channels: channels, seed: UInt64(channels))
        let expected = reference(samples, channels: channels, bits: bits, seed: 5)
        let whole = quantize(samples, channels: channels, bits: bits, seed: 5)
        let wrong = zip(whole.0, expected.0).filter { $0 != $1 }.count
        #expect(whole.0.count == expected.0.count && wrong == 0, "\(wrong) of \(expected.0.count) samples differ")
        #expect(whole.1 == expected.1 && expected.1 > 0, "clips are counted: \(whole.1) of \(expected.1)")
        // Pieces that split frames, and a piece of one sample.
        let cut = quantize(samples, channels: channels, bits: bits, seed: 5, pieces: [1, 7, 1_000, 3, 2_501])
        let same = cut.0 == whole.0  // (not printed whole when it fails)
        #expect(same, "the same in pieces")
        #expect(cut.1 == whole.1)
    }

    @Test("digital silence stays digital silence, also right after a signal")
    func silence() {
        let signal = Signal.sine(frequency: 1_000, frames: 2_000, sampleRate: 44_100, amplitude: 0x1p-12)
        let samples = signal + [Float](repeating: 0, count: 2_000)
        let (out, _) = quantize(samples, channels: 1)
        #expect(out[2_000...].allSatisfy { $0 == 0 })
        #expect(out[..<2_000].contains { $0 != 0 })
    }

    @Test("shapes at 44.1 and 48 kHz and 16 bits or fewer; plain TPDF at other rates, nothing above 16 bits")
    func applies() {
        #expect(Quantizer(bits: 16, dither: .shaped, sampleRate: 44_100).mode == .shaped)
        #expect(Quantizer(bits: 8, dither: .shaped, sampleRate: 48_000).mode == .shaped)
        #expect(Quantizer(bits: 16, dither: .shaped, sampleRate: 96_000).mode == .tpdf)
        #expect(Quantizer(bits: 16, dither: .shaped, sampleRate: 32_000).mode == .tpdf)
        #expect(Quantizer(bits: 24, dither: .shaped, sampleRate: 48_000).mode == .none)
        #expect(Quantizer(bits: 16, dither: .none, sampleRate: 48_000).mode == .none)
        #expect(NoiseShaper.coefficients == Self.published)
    }

    @Test("the error of a quiet sine has ≥ 15 dB less power at 1–4 kHz than TPDF's, and ≥ 15 dB more above 15 kHz")
    func errorSpectrum() {
        let n = 1 << 15
        let sine = Signal.sine(frequency: 1_000, frames: n, sampleRate: 44_100, amplitude: 0x1p-12)
        var tpdf = Quantizer(bits: 16, dither: .tpdf, sampleRate: 44_100)
        var plain = [Int32](repeating: 0, count: n)
        tpdf.quantize(sine, count: n, into: &plain)
        let (shaped, _) = quantize(sine, channels: 1)
        func error(_ q: [Int32]) -> Spectrum {
            Spectrum((0..<n).map { Double(q[$0] >> 16) - Double(sine[$0]) * 32_768 }, sampleRate: 44_100)
        }
        let (a, b) = (error(plain), error(shaped))
        #expect(a.decibels(from: 1_000, to: 4_000) - b.decibels(from: 1_000, to: 4_000) >= 15)
        #expect(b.decibels(from: 15_000, to: 22_050) - a.decibels(from: 15_000, to: 22_050) >= 15)
    }
}
