/// How a knob looks and how its label and needle behave over time.
///
/// Lengths are fractions of the knob's radius (Knob's `indicatorLineLength` and
/// `tickLineLength`); times are seconds.
public struct KnobAppearance: Sendable, Hashable {
    /// Where the progress arc starts: the arc's start, its centre, or a value (bipolar knobs).
    public var progressOrigin: KnobProgressOrigin = .start
    /// Length of the indicator line from the arc toward the centre (0 none, 1 to the centre).
    public var indicatorLength: Double = 0.5
    /// Number of ticks spread evenly from the start to the end of the arc (0 for none).
    public var tickCount: Int = 0
    /// Length of each tick, from the arc inward.
    public var tickLength: Double = 0.2
    /// Show the parameter's name when the knob is idle (Knob's `valueName`); when false the value
    /// is always shown.
    public var showsNameWhenIdle = true
    /// How long the value stays on the label after the last change by hand (Knob's
    /// `valuePersistence`).
    public var valuePersistence: Double = 1
    /// How long a reset, a typed value or a preset load takes to glide along the arc.
    public var animationDuration: Double = 0.25

    public init() {}

    /// `value` clamped to 0…1 (NaN counts as `fallback`).
    static func fraction(_ value: Double, fallback: Double) -> Double {
        value.isNaN ? fallback : min(max(value, 0), 1)
    }

    /// A non-negative, finite duration (the default otherwise).
    static func duration(_ value: Double, fallback: Double) -> Double {
        value.isFinite && value >= 0 ? value : fallback
    }

    private static let defaults = KnobAppearance()

    var checkedIndicatorLength: Double { Self.fraction(indicatorLength, fallback: Self.defaults.indicatorLength) }
    var checkedTickLength: Double { Self.fraction(tickLength, fallback: Self.defaults.tickLength) }
    var checkedValuePersistence: Double { Self.duration(valuePersistence, fallback: Self.defaults.valuePersistence) }
    var checkedAnimationDuration: Double { Self.duration(animationDuration, fallback: Self.defaults.animationDuration) }
}
