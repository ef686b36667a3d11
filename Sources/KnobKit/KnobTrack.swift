/// The position a knob reaches during one gesture: the start position plus the gesture's
/// accumulated movement.
///
/// Movement is summed in the gesture's own unit (rows, pixels, radians) and divided once, so
/// many small events add up to exactly the one large event they split (four rotations of
/// 0.25 rad land where one of 1 rad does). The sum is clamped to what keeps the position in
/// 0…1, so pushing past an end and coming back responds at once, with no dead travel.
/// The position is never snapped here: the knob snaps the value it derives, so slow drags still
/// cross a snapping interval instead of being pulled back each event.
struct KnobTrack: Sendable, Hashable {
    /// Position when the gesture began.
    let start: Double
    /// Movement (in the gesture's unit) that sweeps the whole range.
    let divisor: Double
    /// Accumulated movement since the start, clamped to [lower, upper].
    private(set) var total = 0.0
    private let lower: Double
    private let upper: Double

    init(start: Double, divisor: Double) {
        let p = start.isNaN ? 0 : min(max(start, 0), 1)
        let d = divisor.isFinite && divisor > 0 ? divisor : 1
        self.start = p
        self.divisor = d
        lower = -p * d
        upper = (1 - p) * d
    }

    /// Adds `delta` (ignored when NaN; infinities run to the nearer end).
    mutating func add(_ delta: Double) {
        guard !delta.isNaN else { return }
        let sum = total + delta
        guard !sum.isNaN else { return }
        total = min(max(sum, lower), upper)
    }

    /// The position now, in 0…1.
    var position: Double {
        min(max(start + total / divisor, 0), 1)
    }
}
