import Glibc

/// The energies of a measurement's 400 ms gating blocks (BS.1770: every 100 ms), kept so the
/// integrated loudness can be worked out for the same audio at any other gain.
///
/// Integrated loudness does not move dB for dB with the gain: a block that crosses the
/// absolute gate (−70 LUFS) joins or leaves the mean the relative gate is set from, which
/// moves the result — by 0.1 LU and more for material with quiet passages near −70 LUFS.
/// `--normalize` solves for the gain that lands on its target with these blocks, so that the
/// second pass does not have to be measured again.
///
/// Blocks are counted in bins of 0.01 dB from −150 LUFS (the gate less the largest gain a
/// target allows) to +30 LUFS, with their energies summed exactly: memory is fixed (288 KB)
/// whatever the length, and only a block within 0.005 dB of a gate can be misjudged.
struct GatingBlocks {
    static let lowest = -150.0, highest = 30.0, step = 0.01
    private var counts: [Int]
    private var energies: [Double]

    init() {
        let bins = Int(((Self.highest - Self.lowest) / Self.step).rounded()) + 1
        counts = Array(repeating: 0, count: bins)
        energies = Array(repeating: 0, count: bins)
    }

    /// Adds a block of mean-square (K-weighted, channel-weighted) `energy`.
    mutating func add(energy: Double) {
        guard energy > 0, energy.isFinite else { return }
        let loudness = Self.loudness(energy)
        guard loudness >= Self.lowest - Self.step / 2 else { return }
        let bin = min(counts.count - 1, Int(((loudness - Self.lowest) / Self.step).rounded()))
        counts[bin] += 1
        energies[bin] += energy
    }

    /// The integrated loudness (LUFS) of the blocks with `gain` dB applied; nil when no block
    /// passes the absolute gate.
    func integrated(gain: Double) -> Double? {
        let scale = pow(10, gain / 10)
        func mean(above threshold: Double) -> Double? {
            var count = 0, sum = 0.0
            for bin in counts.indices where counts[bin] > 0 && Self.lowest + Double(bin) * Self.step + gain > threshold {
                count += counts[bin]
                sum += energies[bin]
            }
            return count > 0 ? sum * scale / Double(count) : nil
        }
        guard let ungated = mean(above: -70) else { return nil }
        let relative = Self.loudness(ungated) - 10
        return mean(above: max(-70, relative)).map(Self.loudness)
    }

    /// The gain in dB that brings the integrated loudness to `target`, starting from `guess`;
    /// nil when nothing passes the gate. A few steps settle it: each moves the gain by what
    /// is still missing, and only blocks crossing a gate make the next step differ.
    func gain(toReach target: Double, from guess: Double) -> Double? {
        var gain = guess, best: (gain: Double, miss: Double)?
        for _ in 0..<12 {
            guard let loudness = integrated(gain: gain) else { break }
            let miss = target - loudness
            if best.map({ abs(miss) < abs($0.miss) }) ?? true { best = (gain, miss) }
            if abs(miss) < 0.0005 { break }
            gain += miss
        }
        return best?.gain
    }

    /// BS.1770's loudness of a mean-square energy.
    static func loudness(_ energy: Double) -> Double { -0.691 + 10 * log10(energy) }
}
