import Parameters
import Synchronization

/// The equal-power fade's gains, sin(π/2 · k / frames) for k = 0 … frames, made once per
/// length and shared by every engine of that length for the life of the process. A fade of
/// 10 ms is hundreds of sines, each a series evaluated to the last bit (``RealtimeMath``),
/// and an engine is made for every whole signal a Python caller processes: computing the
/// table each time was a tenth of a short call. Tables are never freed, so the audio thread
/// reads one without owning it; after ``kept`` lengths (a caller cycling through sample
/// rates) an engine makes its own, which it frees.
enum FadeGains {
    /// The lengths kept at most: a machine uses a few sample rates.
    static let kept = 32
    /// A kept table: written once, before it is shared, and only read after.
    private struct Table: @unchecked Sendable { let gains: UnsafeMutablePointer<Float> }
    private static let tables = Mutex<[Int: Table]>([:])

    /// The gains for a fade of `frames` frames, and whether the caller owns them (frees them).
    static func table(frames: Int) -> (gains: UnsafeMutablePointer<Float>, owned: Bool) {
        if let shared = tables.withLock({ $0[frames] }) { return (shared.gains, false) }
        let made = Table(gains: .allocate(capacity: frames + 1))
        for k in 0...frames {
            made.gains[k] = Float(RealtimeMath.sin(Double.pi / 2 * Double(k) / Double(frames)))
        }
        let kept: (table: Table, owned: Bool) = tables.withLock { tables in
            if let raced = tables[frames] { return (raced, false) }
            guard tables.count < Self.kept else { return (made, true) }
            tables[frames] = made
            return (made, false)
        }
        if kept.table.gains != made.gains { made.gains.deallocate() }
        return (kept.table.gains, kept.owned)
    }
}
