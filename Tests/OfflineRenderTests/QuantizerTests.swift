import Testing
import TestSupport
@testable import OfflineRender

@Suite("Quantizer")
struct QuantizerTests {
    /// Interleaved `samples` through ``Quantizer/quantize(_:count:into:)``, handed over in
    /// pieces of the given sizes (the rest in one piece).
    func quantize(_ samples: [Float], bits: Int, dither: Bool = false, seed: UInt64 = 1,
                  pieces: [Int] = []) -> ([Int32], Int64) {
        var q = Quantizer(bits: bits, dither: dither, seed: seed)
        return (q.quantize(samples, pieces: pieces), q.clipped)
    }

    /// Draw k of the dither noise, from its definition: the 32-bit hash (xor-shift-multiply,
    /// "lowbias32") of the low 32 bits of k plus the folded seed, whose high and low 16-bit
    /// halves are two uniform values; their difference in units of 2^−16 of a step.
    static func draw(_ k: UInt64, seed: UInt64) -> Float {
        var h = UInt32(truncatingIfNeeded: k) &+ (UInt32(truncatingIfNeeded: seed) ^ UInt32(truncatingIfNeeded: seed >> 32))
        h ^= h >> 16
        h = h &* 0x7FEB_352D
        h ^= h >> 15
        h = h &* 0x846C_A68B
        h ^= h >> 16
        return Float(Int(h >> 16) - Int(h & 0xFFFF)) / 65_536
    }

    /// The rules, written out one sample at a time: scaled by 2^(bits−1) in Float (exact),
    /// plus — dithering at 16 bits or fewer, and the sample not exactly 0 — draw k for sample
    /// k, added in Float; then
    /// rounded ties-to-even, clipped to −2^(bits−1) … 2^(bits−1)−1 and counted if it had to
    /// be, left-justified. NaN is 0.
    func reference(_ samples: [Float], bits: Int, dither: Bool, seed: UInt64) -> ([Int32], Int64) {
        let scale = Double(1 << (bits - 1))
        var clipped: Int64 = 0
        let out = samples.enumerated().map { k, sample -> Int32 in
            var y = sample * Float(scale)
            if dither && bits <= 16 && sample != 0 { y += Self.draw(UInt64(k), seed: seed) }
            if y.isNaN { return 0 }
            let rounded = Double(y).rounded(.toNearestOrEven)
            let clamped = Swift.min(Swift.max(rounded, -scale), scale - 1)
            if clamped != rounded { clipped += 1 }
            return Int32(clamped) << (32 - bits)
        }
        return (out, clipped)
    }

    /// Inputs on and around every boundary of the rules for `bits`: ties at each half step
    /// near both clamp edges, near ±2^22 and ±2^23 (where a Float's step is ½ and 1) and near
    /// 0, their neighbouring Floats, ±1, zeros, denormals, huge values, infinities and NaNs.
    func edges(bits: Int) -> [Float] {
        let scale = Double(1 << (bits - 1))
        var values: [Float] = [
            0, -0.0, 1, -1, 0.5, -0.5, .infinity, -.infinity, .nan, -.nan,
            Float(bitPattern: 0x7FC0_0007), Float(bitPattern: 0xFFA0_0005), .signalingNaN,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
            -.leastNormalMagnitude, Float.leastNormalMagnitude.nextDown,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e30, -1e30, 3e9, -3e9,
        ]
        for center in [scale, -scale, scale / 2, -scale / 2, 0x1p22, -0x1p22, 0x1p23, -0x1p23, 0] {
            for halfSteps in -8...8 {
                let x = Float((center + Double(halfSteps) / 2) / scale)
                values += [x, x.nextUp, x.nextDown]
            }
        }
        return values
    }

    /// Random inputs for `bits`: a mix of edge values, uniform values past ±1, exact half
    /// steps anywhere in the range, and arbitrary bit patterns.
    func randomSamples(count: Int, bits: Int, random: inout SplitMix64) -> [Float] {
        let edges = edges(bits: bits)
        let scale = Double(1 << (bits - 1))
        return (0..<count).map { _ -> Float in
            switch random.next() % 4 {
            case 0: random.pick(edges)
            case 1: Float(random.double(in: -1.1...1.1))
            case 2: Float((Double(Int64(bitPattern: random.next()) >> (64 - bits)) + 0.5) / scale)
            default: Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            }
        }
    }

    @Test("matches the rules sample for sample, for every depth, with and without dither",
          arguments: Array(8...32))
    func matchesReference(bits: Int) {
        var random = SplitMix64(seed: UInt64(bits))
        for dither in [false, true] {
            for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 17, 33, 1_001] {
                let samples = randomSamples(count: count, bits: bits, random: &random)
                let seed = random.next()
                let expected = reference(samples, bits: bits, dither: dither, seed: seed)
                let whole = quantize(samples, bits: bits, dither: dither, seed: seed)
                #expect(whole.0 == expected.0, "bits \(bits), dither \(dither), count \(count)")
                #expect(whole.1 == expected.1, "bits \(bits), dither \(dither), count \(count): clip count")
                let pieces = (0..<5).map { _ in Int(random.next() % 11) }
                let cut = quantize(samples, bits: bits, dither: dither, seed: seed, pieces: pieces)
                #expect(cut.0 == expected.0 && cut.1 == expected.1, "bits \(bits), pieces \(pieces)")
            }
            let edges = edges(bits: bits)
            let expected = reference(edges, bits: bits, dither: dither, seed: 3)
            let got = quantize(edges, bits: bits, dither: dither, seed: 3)
            for (i, x) in edges.enumerated() where got.0[i] != expected.0[i] {
                Issue.record("bits \(bits), dither \(dither): \(x) (0x\(String(x.bitPattern, radix: 16))) gave \(got.0[i]), expected \(expected.0[i])")
            }
            #expect(got.1 == expected.1, "bits \(bits), dither \(dither): edge clip count")
        }
    }

    @Test("the portable rounding step rounds as SSE2's conversion does")
    func portableRounding() {
        var random = SplitMix64(seed: 5)
        var values: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0x1p23, -0x1p23, 0x1p31, -0x1p31,
                               0x1p22 + 0.5, -0x1p22 - 0.5, 0x1p23 - 0.5, -0x1p23 + 0.5, Float(0x1p31).nextDown]
        for _ in 0..<4_000 {
            let magnitude = Float(1 << (random.next() % 32))
            values.append(Float(random.double(in: -1...1)) * magnitude)
            values.append((Float(Int64(random.next() % 0x100_0000)) - 0x80_0000) / 2)
        }
        for i in stride(from: 0, to: values.count - 3, by: 4) {
            let x = SIMD4(values[i], values[i + 1], values[i + 2], values[i + 3])
            let expected = SIMD4<Int32>((0..<4).map { Int32(truncatingIfNeeded: Int64(x[$0].rounded(.toNearestOrEven))) })
            #expect(StepRule.roundedToNearestEven(x) == expected, "\(x)")
            #expect(StepRule.portableRoundedToNearestEven(x) == expected, "\(x)")
        }
    }

    @Test("rounds to the nearest step, ties to even, left-justified")
    func rounding() {
        let step: Float = 1 / 32_768
        let (out, clipped) = quantize([0, 0.5 * step, 1.5 * step, 2.5 * step, -0.5 * step, -1.5 * step, 0.49 * step, 0.51 * step], bits: 16)
        #expect(out.map { $0 >> 16 } == [0, 0, 2, 2, 0, -2, 0, 1])
        #expect(out.allSatisfy { $0 & 0xFFFF == 0 })
        #expect(clipped == 0)
    }

    @Test("clips to the range and counts each clipped sample", arguments: [8, 16, 24, 32])
    func clipping(bits: Int) {
        let scale = Float(1 << (bits - 1))
        let samples: [Float] = [1, -1, 1.5, -1.5, 1000, -1000, (scale - 1) / scale, 0.25]
        let (out, clipped) = quantize(samples, bits: bits)
        let top = (Int32.max >> (32 - bits)) << (32 - bits)
        #expect(out == [top, Int32.min, top, Int32.min, top, Int32.min, top, Int32(1) << 29])
        // +1.0 does not fit (the largest step is 1 − 2^−(bits−1)); −1.0 does. At 32 bits that
        // largest step is not a Float: it is written as 1.0, which clips too.
        #expect(clipped == (bits == 32 ? 6 : 5))
    }

    @Test("ties at the edges: scale − ½ clips, −scale − ½ rounds to −scale")
    func edgeTies() {
        let (_, clipped) = quantize([Float(32_767.5 / 32_768), Float(-32_768.5 / 32_768)], bits: 16)
        #expect(clipped == 1)
    }

    @Test("TPDF dither on a signal far below one step gives −1, 0, +1 steps with probabilities 1/8, 3/4, 1/8")
    func ditherDistribution() {
        let n = 200_000
        // 2^−24: a thousandth of a 16-bit step, not silence, so it is dithered.
        let (out, clipped) = quantize([Float](repeating: 0x1p-24, count: n), bits: 16, dither: true)
        let steps = out.map { $0 >> 16 }
        #expect(steps.allSatisfy { (-1...1).contains($0) })
        #expect(clipped == 0)
        // Triangular t on (−1, 1): P(t > ½) = ∫½¹ (1 − t) dt = 1/8. Binomial σ = √(n·p·(1−p)).
        let sigma = (Double(n) * 0.125 * 0.875).squareRoot()
        for value: Int32 in [-1, 1] {
            let count = Double(steps.filter { $0 == value }.count)
            #expect(abs(count - Double(n) / 8) < 5 * sigma, "step \(value)")
        }
    }

    @Test("digital silence stays digital silence: exact zeros get no dither, their neighbours do")
    func silenceIsNotDithered() {
        let n = 10_001  // not a multiple of four: the tail path too
        let (silent, _) = quantize([Float](repeating: 0, count: n), bits: 16, dither: true)
        #expect(silent.allSatisfy { $0 == 0 })
        let quiet = (0..<n).map { $0 % 2 == 0 ? Float(0) : 0x1p-24 }
        let (out, _) = quantize(quiet, bits: 16, dither: true)
        #expect(out.enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element == 0 })
        #expect(out.enumerated().contains { $0.offset % 2 == 1 && $0.element != 0 }, "the rest is dithered")
    }

    @Test("the dither noise is triangular on (−1, 1): mean 0, variance 1/6, uncorrelated")
    func noiseIsTriangular() {
        let noise = TriangularNoise(seed: 0x5DEE_CE66_D1CE_5EED)
        let n = 1 << 20
        var sum = 0.0, squares = 0.0, lagged = 0.0, previous = 0.0
        var bins = [Int](repeating: 0, count: 20)  // over −1 … 1, 0.1 wide
        var outside = 0, unlikeTheRule = 0
        for k in 0..<n {
            let x = Double(noise.draw(UInt64(k)))
            if !(x > -1 && x < 1) { outside += 1 }
            if x != Double(Self.draw(UInt64(k), seed: 0x5DEE_CE66_D1CE_5EED)) { unlikeTheRule += 1 }
            sum += x
            squares += x * x
            lagged += x * previous
            previous = x
            bins[min(19, Int((x + 1) * 10))] += 1
        }
        #expect(outside == 0)
        #expect(unlikeTheRule == 0)
        let mean = sum / Double(n), variance = squares / Double(n) - mean * mean
        #expect(abs(mean) < 0.002)
        #expect(abs(variance - 1.0 / 6) < 0.002)
        #expect(abs(lagged / Double(n) / variance) < 0.005)
        // Each bin holds the triangle's area over it: (1 − |centre|) × 0.1.
        for (i, count) in bins.enumerated() {
            let centre = -0.95 + 0.1 * Double(i)
            let expected = (1 - abs(centre)) * 0.1 * Double(n)
            #expect(abs(Double(count) - expected) < 0.03 * expected + 50, "bin \(i)")
        }
    }

    @Test("dither is the same whether a stereo signal is quantised at once or in blocks")
    func ditherIsBlockIndependent() {
        let left = (0..<1_000).map { Float($0 % 97) / 97 - 0.5 }
        // Frame by frame, channel by channel: sample k of the file takes draw k.
        let stereo = left.flatMap { [$0, -$0 * 0.3] }
        let whole = quantize(stereo, bits: 16, dither: true, seed: 7)
        #expect(whole.0 == reference(stereo, bits: 16, dither: true, seed: 7).0)
        #expect(quantize(stereo, bits: 16, dither: true, seed: 7, pieces: [2, 4, 6]).0 == whole.0)
        #expect(quantize(stereo, bits: 16, dither: true, seed: 7, pieces: Array(repeating: 20, count: 99)).0 == whole.0)
    }

    @Test("non-integer encodings clip at ±1, counted")
    func clipToUnit() {
        var x: [Float] = [0.5, 1, 1.01, -1, -3, 0]
        let clipped = x.withUnsafeMutableBufferPointer { Quantizer.clipToUnit($0.baseAddress!, count: $0.count) }
        #expect(clipped == 2)
        #expect(x == [0.5, 1, 1, -1, -1, 0])
    }
}
