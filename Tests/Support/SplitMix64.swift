/// A tiny deterministic random generator (Steele, Lea & Flood's SplitMix64), so property tests
/// replay the same sequences on every run and every machine. Shared by every test target.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A double in `range`.
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One of `values`.
    public mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
}
