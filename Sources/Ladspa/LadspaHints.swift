import Glibc

/// A control port's `LADSPA_PortRangeHint`, and what the header says it means: the bounds
/// (multiplied by the sample rate for `SAMPLE_RATE` ports), the default (`DEFAULT_MINIMUM` …
/// `DEFAULT_440`; LOW, MIDDLE and HIGH interpolated geometrically for `LOGARITHMIC` ports, and
/// rounded for `INTEGER` ones), and the kind of control (toggled, integer, continuous).
///
/// ```swift
/// let hints = LadspaHints(descriptor: 0x1 | 0x2 | 0x8 | 0x10 | 0xC0, lower: 0.0001, upper: 0.45)
/// hints.defaultValue(sampleRate: 48_000)   // √(4.8 × 21600) ≈ 322 Hz, geometric
/// ```
public struct LadspaHints: Sendable, Hashable {
    public let descriptor: Int32
    public let lower: Float
    public let upper: Float

    public init(descriptor: Int32, lower: Float, upper: Float) {
        self.descriptor = descriptor
        self.lower = lower
        self.upper = upper
    }

    // The bits of ladspa.h, spelled out so that this pure logic needs no C module.
    static let boundedBelow: Int32 = 0x1, boundedAbove: Int32 = 0x2, toggledBit: Int32 = 0x4
    static let sampleRateBit: Int32 = 0x8, logarithmicBit: Int32 = 0x10, integerBit: Int32 = 0x20
    static let defaultMask: Int32 = 0x3C0

    /// The `LADSPA_HINT_DEFAULT_*` values.
    public enum Default: Int32, Sendable {
        case none = 0x0, minimum = 0x40, low = 0x80, middle = 0xC0, high = 0x100, maximum = 0x140
        case zero = 0x200, one = 0x240, hundred = 0x280, concertA = 0x2C0
    }

    public var isToggled: Bool { descriptor & Self.toggledBit != 0 }
    public var isSampleRate: Bool { descriptor & Self.sampleRateBit != 0 }
    public var isLogarithmic: Bool { descriptor & Self.logarithmicBit != 0 }
    public var isInteger: Bool { descriptor & Self.integerBit != 0 }
    /// The default hint (`none` for a value the mask does not define).
    public var defaultHint: Default { Default(rawValue: descriptor & Self.defaultMask) ?? .none }

    /// The declared bounds at `sampleRate` (nil where a bound is not given, or not finite).
    public func bounds(sampleRate: Double) -> (lower: Double?, upper: Double?) {
        let scale = isSampleRate ? sampleRate : 1
        let low = descriptor & Self.boundedBelow != 0 && lower.isFinite ? Double(lower) * scale : nil
        let high = descriptor & Self.boundedAbove != 0 && upper.isFinite ? Double(upper) * scale : nil
        return (low, high)
    }

    /// The default the header defines at `sampleRate`, or nil when it defines none (or one
    /// from a bound that is not given). 0, 1, 100 and 440 are not multiplied by the rate.
    public func defaultValue(sampleRate: Double) -> Double? {
        let (low, high) = bounds(sampleRate: sampleRate)
        func between(_ weight: Double) -> Double? {
            guard let low, let high else { return nil }
            if isLogarithmic && low > 0 && high > 0 {
                return exp(log(low) * (1 - weight) + log(high) * weight)
            }
            return low * (1 - weight) + high * weight
        }
        let value: Double? = switch defaultHint {
        case .none: nil
        case .minimum: low
        case .low: between(0.25)
        case .middle: between(0.5)
        case .high: between(0.75)
        case .maximum: high
        case .zero: 0
        case .one: 1
        case .hundred: 100
        case .concertA: 440
        }
        guard let value else { return nil }
        return isInteger ? value.rounded() : value
    }

    /// The range a person turns at `sampleRate`: the declared bounds, held inward to whole
    /// numbers for an integer port (the header asks for bounds "slightly wider than the actual
    /// integer range"), 0 … 1 for a toggle. A missing lower bound is 0 (or lower, to hold the
    /// default or the upper bound); a missing upper bound is the larger of 1, the lower bound
    /// plus 1 and twice the default.
    public func range(sampleRate: Double) -> ClosedRange<Double> {
        if isToggled { return 0...1 }
        var (low, high) = bounds(sampleRate: sampleRate)
        if isInteger {
            if let l = low { low = l.rounded(.up) }
            if let h = high { high = h.rounded(.down) }
        }
        let fallback = defaultValue(sampleRate: sampleRate).flatMap { $0.isFinite ? $0 : nil }
        let lo = low ?? min(0, fallback ?? 0, (high ?? 1) - 1)
        var hi = high ?? max(1, lo + 1, 2 * (fallback ?? 0))
        if hi <= lo { hi = lo + 1 }
        return lo...hi
    }

    /// The starting value at `sampleRate`: the default, or the lower bound without one (0 for
    /// a toggle), held to the range.
    public func startingValue(sampleRate: Double) -> Double {
        let range = range(sampleRate: sampleRate)
        var value = defaultValue(sampleRate: sampleRate) ?? (isToggled ? 0 : range.lowerBound)
        if isToggled { value = value > 0 ? 1 : 0 }
        if !value.isFinite { value = range.lowerBound }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// True when a knob should turn it on a log taper: logarithmic, with a positive range.
    public func turnsLogarithmically(sampleRate: Double) -> Bool {
        isLogarithmic && !isToggled && range(sampleRate: sampleRate).lowerBound > 0
    }
}
