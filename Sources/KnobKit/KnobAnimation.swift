/// The shown position gliding from one normalised position to another, as a pure function of time.
///
/// It interpolates the *position* (0…1), not the angle, so the shown needle always travels the
/// long way along the arc and never through the gap — the problem MHRotaryKnob solved with a
/// three-keyframe animation. Easing is smoothstep (3u² − 2u³): it starts and lands gently, is
/// monotonic, and at the end returns the target itself, so the animation lands exactly.
public struct KnobAnimation: Sendable, Hashable {
    /// Shown position when the animation started.
    public let from: Double
    /// Position it lands on.
    public let to: Double
    /// When it started (seconds, the caller's clock).
    public let startTime: Double
    /// How long it lasts (seconds); zero or less lands at once.
    public let duration: Double

    public init(from: Double, to: Double, startTime: Double, duration: Double) {
        self.from = from
        self.to = to
        self.startTime = startTime
        self.duration = duration.isFinite ? duration : 0
    }

    /// The animation has landed at `time` (a NaN time counts as landed).
    public func isFinished(at time: Double) -> Bool {
        !(time < startTime + duration) || duration <= 0
    }

    /// The shown position at `time`: `from` before the start, `to` from the end on.
    public func position(at time: Double) -> Double {
        if isFinished(at: time) { return to }
        if !(time > startTime) { return from }
        let u = (time - startTime) / duration
        let eased = Self.ease(u)
        let p = from + (to - from) * eased
        // Rounding must not carry the needle past either end.
        return min(max(p, min(from, to)), max(from, to))
    }

    /// Smoothstep on 0…1 (clamped).
    static func ease(_ u: Double) -> Double {
        let t = u.isNaN ? 1 : min(max(u, 0), 1)
        return t * t * (3 - 2 * t)
    }
}
