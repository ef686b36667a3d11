import Parameters

/// Discrete inputs: wheel notches, keys and typed values. Each reports at once.
extension Knob {
    /// Turns by `notches` wheel notches (positive up): one notch is one step
    /// (``KnobBehavior/step``, 1 % of the range), times the fine factor with the fine modifier.
    /// With snapping, every notch lands on the grid and moves at least one interval.
    @discardableResult
    public mutating func scroll(notches: Int, fine: Bool = false, at time: Double) -> Double? {
        guard isEnabled, notches != 0 else { return nil }
        let delta = Double(notches) * behavior.checkedStep * behavior.speedFactor(fine: fine)
        return step(by: delta, at: time)
    }

    /// A key: a step, a page of steps, the minimum, the maximum, or the default.
    /// Home, End and reset glide along the arc; steps move at once.
    @discardableResult
    public mutating func press(_ key: KnobKey, fine: Bool = false, at time: Double) -> Double? {
        guard isEnabled else { return nil }
        let step = behavior.checkedStep * behavior.speedFactor(fine: fine)
        let page = step * behavior.checkedPageMultiplier
        switch key {
        case .increment: return move(by: step, at: time)
        case .decrement: return move(by: -step, at: time)
        case .pageUp: return move(by: page, at: time)
        case .pageDown: return move(by: -page, at: time)
        case .home: return apply(scale.range.lowerBound, at: time, animated: true, byHand: true, discrete: true)
        case .end: return apply(scale.range.upperBound, at: time, animated: true, byHand: true, discrete: true)
        case .reset: return resetToDefault(at: time)
        }
    }

    /// The knob turns an on/off parameter (a toggle): a switch, flipped rather than turned.
    public var isSwitch: Bool { scale.spec?.kind == .toggle }

    /// A switch goes to its other position, at once: it is flipped, never turned through the
    /// values between. Other knobs ignore it.
    ///
    /// - Returns: the value to send, or nil for a knob that is not a switch or is disabled.
    @discardableResult
    public mutating func flip(at time: Double) -> Double? {
        guard isEnabled, isSwitch, let steps = scale.steps, steps.count == 2 else { return nil }
        return apply(value == steps[1] ? steps[0] : steps[1], at: time, animated: false, byHand: true, discrete: true)
    }

    /// A value typed by a person (`1.2k`, `800 Hz`, `-6 dB`), read by the scale's parser — for
    /// table parameters, the table's own. The knob glides to it; it is not snapped, since the
    /// person asked for exactly this value.
    ///
    /// - Throws: ``Parameters/ParameterError`` with a one-line message when the text is not a value in
    ///   range; the knob is then unchanged.
    /// - Returns: the value to send, or nil when it did not change or the knob is disabled.
    @discardableResult
    public mutating func enter(_ text: String, at time: Double) throws(ParameterError) -> Double? {
        let typed = try scale.parse(text)
        guard isEnabled else { return nil }
        return apply(typed, at: time, animated: true, byHand: true, discrete: true)
    }

    private mutating func move(by delta: Double, at time: Double) -> Double? {
        step(by: delta, at: time)
    }
}
