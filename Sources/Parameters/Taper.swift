/// How a knob's normalised position 0…1 maps onto a parameter's range.
///
/// Logarithmic suits quantities heard in ratios (Hz, Q): equal knob travel gives an equal
/// ratio. Linear suits quantities already logarithmic (dB).
public enum Taper: String, Sendable, Hashable, Codable, BitwiseCopyable {
    case linear
    case logarithmic

    /// The normalised position of `value` (assumed inside `range`).
    public func normalized(_ value: Double, in range: ClosedRange<Double>) -> Double {
        let lo = range.lowerBound, hi = range.upperBound
        guard hi > lo else { return 0 }
        switch self {
        case .linear:
            return (value - lo) / (hi - lo)
        case .logarithmic:
            return RealtimeMath.log2(value / lo) / RealtimeMath.log2(hi / lo)
        }
    }

    /// The value at normalised position `p` (assumed inside 0…1).
    public func value(atNormalized p: Double, in range: ClosedRange<Double>) -> Double {
        let lo = range.lowerBound, hi = range.upperBound
        switch self {
        case .linear:
            return lo + (hi - lo) * p
        case .logarithmic:
            if p <= 0 { return lo }
            if p >= 1 { return hi }
            return lo * RealtimeMath.exp2(p * RealtimeMath.log2(hi / lo))
        }
    }
}

/// How the engine glides from the current value to a new target.
public enum Smoothing: String, Sendable, Hashable, Codable, BitwiseCopyable {
    /// A constant step per sample (in the engine domain: amplitude for gain).
    case linear
    /// A constant ratio per sample: equal time per octave, which is how a cutoff sweep is heard.
    case multiplicative
    /// No glide: each new value takes effect at once (stepped parameters: toggles, integers,
    /// enumerations, where a value between two steps means nothing).
    case none
}
