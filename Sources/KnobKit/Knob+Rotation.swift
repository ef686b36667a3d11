/// Rotation gestures (two-finger rotation, a relative encoder turned by hand) and single turns.
extension Knob {
    /// Turns the knob by `radians` (clockwise positive) within a rotation gesture: one arc span
    /// of rotation sweeps the whole range (radians / (3π/2) for the standard arc).
    ///
    /// Rotations add up exactly within a gesture: the knob sums the radians and divides once.
    /// A `.changed` or `.ended` without a `.began` starts a gesture on the spot, so a lone
    /// `.ended` is a complete turn. Non-finite radians turn nothing.
    @discardableResult
    public mutating func rotate(
        by radians: Double, phase: KnobRotationPhase, fine: Bool = false, at time: Double
    ) -> Double? {
        guard isEnabled else { return nil }
        var result: Double?
        var track: KnobTrack
        if phase != .began, case .rotation(let current)? = gesture {
            track = current
        } else {
            result = endGesture(at: time)
            track = KnobTrack(start: position, divisor: arc.span)
        }
        if radians.isFinite { track.add(radians * behavior.speedFactor(fine: fine)) }
        gesture = .rotation(track)
        let target = snapped(scale.value(atNormalized: track.position))
        result = apply(target, at: time, animated: false, byHand: true, discrete: false) ?? result
        if phase == .ended { result = endGesture(at: time) ?? result }
        return result
    }

    /// One discrete turn by `radians` (a detent of a relative encoder), reported at once.
    /// Unlike a gesture, each turn honours snapping like a wheel notch: it moves at least one
    /// snapping interval, so small detents are never swallowed by the grid.
    @discardableResult
    public mutating func turn(by radians: Double, fine: Bool = false, at time: Double) -> Double? {
        guard isEnabled, radians.isFinite else { return nil }
        return apply(stepped(by: radians / arc.span * behavior.speedFactor(fine: fine)),
                     at: time, animated: false, byHand: true, discrete: true)
    }
}
