#if canImport(Glibc)
import Glibc
#endif

/// The power spectrum of a signal, for tests that ask where its energy lies (noise shaping,
/// filters): Hann-windowed, one radix-2 FFT over the first power-of-two samples.
public struct Spectrum {
    public let sampleRate: Double
    /// Power per bin, 0 Hz … sampleRate / 2.
    public let power: [Double]

    public init(_ signal: [Double], sampleRate: Double) {
        var n = 1
        while n * 2 <= signal.count { n *= 2 }
        var re = (0..<n).map { signal[$0] * (0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(n))) }
        var im = [Double](repeating: 0, count: n)
        Self.transform(&re, &im)
        self.sampleRate = sampleRate
        power = (0...n / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }

    /// Total power of the bins from `low` up to (not including) `high` Hz, in dB (of an
    /// arbitrary reference: compare two spectra of equal length).
    public func decibels(from low: Double, to high: Double) -> Double {
        let binWidth = sampleRate / Double(2 * (power.count - 1))
        let bins = power.indices.filter { Double($0) * binWidth >= low && Double($0) * binWidth < high }
        return 10 * log10(bins.reduce(0) { $0 + power[$1] })
    }

    /// In-place iterative radix-2 FFT (bit reversal, then butterflies).
    private static func transform(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<length / 2 {
                    let (c, s) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * c - im[b] * s, ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
            }
            length *= 2
        }
    }
}
