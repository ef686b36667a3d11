import Testing
@testable import AudioFile

@Suite("Quantizer")
struct QuantizerTests {
    func quantize(_ samples: [Float], bits: Int, dither: Bool = false, seed: UInt64 = 1) -> ([Int32], Int64) {
        var q = Quantizer(bits: bits, dither: dither, seed: seed)
        var out = [Int32](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { lane in
            [lane.baseAddress!].withUnsafeBufferPointer { lanes in
                q.quantize(lanes: lanes.baseAddress!, channels: 1, frames: samples.count, into: &out)
            }
        }
        return (out, q.clipped)
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

    @Test("TPDF dither on silence gives −1, 0, +1 steps with probabilities 1/8, 3/4, 1/8")
    func ditherDistribution() {
        let n = 200_000
        let (out, clipped) = quantize([Float](repeating: 0, count: n), bits: 16, dither: true)
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

    @Test("dither is the same whether a signal is quantised at once or in pieces, per channel")
    func ditherIsBlockIndependent() {
        let left = (0..<1_000).map { Float($0 % 97) / 97 - 0.5 }
        let right = left.map { -$0 * 0.3 }
        func interleaved(blocks: [Int]) -> [Int32] {
            var q = Quantizer(bits: 16, dither: true, seed: 7)
            var out: [Int32] = []
            var start = 0
            for n in blocks {
                var chunk = [Int32](repeating: 0, count: n * 2)
                let l = Array(left[start..<start + n]), r = Array(right[start..<start + n])
                l.withUnsafeBufferPointer { lp in
                    r.withUnsafeBufferPointer { rp in
                        [lp.baseAddress!, rp.baseAddress!].withUnsafeBufferPointer { lanes in
                            q.quantize(lanes: lanes.baseAddress!, channels: 2, frames: n, into: &chunk)
                        }
                    }
                }
                out += chunk
                start += n
            }
            return out
        }
        let whole = interleaved(blocks: [1_000])
        #expect(interleaved(blocks: [1, 2, 3, 994]) == whole)
        #expect(interleaved(blocks: Array(repeating: 10, count: 100)) == whole)
        // Channel order is interleaved: frame 0 left, frame 0 right, … (not left's whole block first).
        let mono = quantize(left.enumerated().flatMap { [$0.element, right[$0.offset]] }, bits: 16, dither: true, seed: 7).0
        #expect(mono == whole)
    }

    @Test("non-integer encodings clip at ±1, counted")
    func clipToUnit() {
        var x: [Float] = [0.5, 1, 1.01, -1, -3, 0]
        let clipped = x.withUnsafeMutableBufferPointer { Quantizer.clipToUnit($0.baseAddress!, count: $0.count) }
        #expect(clipped == 2)
        #expect(x == [0.5, 1, 1, -1, -1, 0])
    }
}
