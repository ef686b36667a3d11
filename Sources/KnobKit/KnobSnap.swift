/// A snapping grid: the multiples of an interval, in the parameter's own unit.
///
/// The grid is anchored at zero rather than at the range minimum, so round numbers stay on it
/// (0 dB with half-decibel steps on a −60 … +12 dB range, 1000 Hz with 10 Hz steps). The range
/// ends may lie off the grid; the knob clamps after snapping, so they stay reachable.
struct KnobSnap: Sendable, Hashable {
    let interval: Double

    /// A grid with a finite, positive interval; nil otherwise (no snapping).
    init?(interval: Double) {
        guard interval.isFinite, interval > 0 else { return nil }
        self.interval = interval
    }

    /// The grid index of `value` (value / interval), when it is finite.
    private func index(_ value: Double) -> Double? {
        let k = value / interval
        return k.isFinite ? k : nil
    }

    /// The grid point nearest `value`.
    func snap(_ value: Double) -> Double {
        guard let k = index(value) else { return value }
        return k.rounded(.toNearestOrAwayFromZero) * interval
    }

    /// The first grid point strictly above (`up`) or below `value`. A value already on the grid
    /// (within rounding) moves a whole interval.
    func next(from value: Double, up: Bool) -> Double {
        guard let k = index(value) else { return value }
        let nearest = k.rounded(.toNearestOrAwayFromZero)
        let onGrid = abs(k - nearest) <= 1e-9 * max(1, abs(k))
        let target: Double
        if onGrid {
            target = up ? nearest + 1 : nearest - 1
        } else {
            target = up ? k.rounded(.up) : k.rounded(.down)
        }
        return target * interval
    }
}
