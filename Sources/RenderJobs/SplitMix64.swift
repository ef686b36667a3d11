/// Steele, Lea & Flood's SplitMix64: a tiny generator whose sequence is fixed by its seed on
/// every machine and in every release, unlike the system's, so `--seed` renders the same
/// variants byte for byte wherever and whenever it runs.
///
/// ```swift
/// var random = SplitMix64(seed: 7)
/// random.unit()   // the same number in 0..<1 every time
/// ```
package struct SplitMix64 {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// The generator for variant `variant` of job `job` under `seed`: its own sequence, which
    /// depends on nothing else (not on the other jobs, their order, the shard or the threads).
    package init(seed: UInt64, job: Int, variant: Int) {
        var outer = SplitMix64(seed: seed)
        var inner = SplitMix64(seed: outer.next() ^ UInt64(job))
        self.init(seed: inner.next() ^ UInt64(variant))
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1 with 53 random bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
