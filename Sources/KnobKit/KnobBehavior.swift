import Parameters

/// How a knob responds to gestures: drag travel and feel, steps, snapping, timing, reporting.
///
/// Distances other than the travel are fractions of the travel, so one setting per pointer unit
/// (``travelCells``, ``travelPixels``) scales the whole feel to a terminal's cell or pixel
/// reports. Every number is read through a guard: a setting that is NaN, infinite or out of its
/// sensible range falls back to its default instead of ever reaching the value.
///
/// ```swift
/// var behavior = KnobBehavior()
/// behavior.dragStyle = .circular
/// behavior.snapInterval = 0.5          // in the parameter's unit, e.g. half-decibel steps
/// behavior.reporting = .onRelease
/// ```
public struct KnobBehavior: Sendable, Hashable {
    /// Vertical or circular pointer drags.
    public var dragStyle: KnobDragStyle = .vertical
    /// Rows of vertical drag that sweep the whole range at sensitivity 1 (Knob's `travelDistance`).
    public var travelCells: Double = 8
    /// Pixels of vertical drag that sweep the whole range at sensitivity 1.
    public var travelPixels: Double = 200
    /// Multiplies the travel of vertical drags: 2 needs twice the drag for the same change
    /// (Knob's `touchSensitivity`). Circular drags and rotations follow the arc itself.
    public var sensitivity: Double = 1
    /// Half-width, as a fraction of the travel, of the band around the knob's centre where a
    /// vertical drag runs at full speed (Knob's `maxChangeRegionWidthPercentage`, but scaled by
    /// the travel rather than capped at a few pixels).
    public var fullSpeedBand: Double = 0.5
    /// Sideways distance beyond the band, as a fraction of the travel, over which the speed falls
    /// from 1 toward ``minimumSpeed``.
    public var fineReach: Double = 2
    /// The slowest a sideways pointer makes a vertical drag (0 < speed ≤ 1).
    public var minimumSpeed: Double = 0.1
    /// How the speed falls between the band's edge and the fine reach.
    public var speedFalloff: KnobSpeedFalloff = .linear
    /// The fine modifier (Ctrl or Alt) multiplies every drag, rotation, wheel and key step by this.
    public var fineFactor: Double = 0.1
    /// Height of a character cell divided by its width.
    public var cellAspect: Double = 2
    /// Radius, as a fraction of the travel, around the centre where circular drags are ignored:
    /// there a tiny movement swings the angle wildly (MHRotaryKnob).
    public var deadZone: Double = 0.1
    /// A circular-drag event that turns the pointer angle further than this (radians) is ignored,
    /// so the value never jumps across the gap (MHRotaryKnob's 45°).
    public var maximumAngleStep: Double = Double.pi / 4
    /// One wheel notch or arrow key, as a fraction of the normalised range (1 %).
    public var step: Double = 0.01
    /// Page Up / Page Down move this many steps.
    public var pageMultiplier: Double = 10
    /// When set, values land on multiples of this interval (in the parameter's unit); the range
    /// ends stay reachable. Wheel and key steps always move at least one interval.
    public var snapInterval: Double?
    /// When changes made during a drag or rotation are handed to the caller.
    public var reporting: KnobReporting = .continuous
    /// Two presses at most this many seconds apart form a double-click (which resets the knob).
    public var doubleClickInterval: Double = 0.3
    /// …and at most this far apart (a fraction of the travel; the pointer must not move further
    /// during the first click either).
    public var doubleClickDistance: Double = 0.05

    public init() {}

    private static let defaults = KnobBehavior()

    /// `value` if it is finite and inside `valid`, else the default `fallback`.
    private static func checked(_ value: Double, _ valid: (Double) -> Bool, _ fallback: Double) -> Double {
        value.isFinite && valid(value) ? value : fallback
    }

    /// The travel for pointer reports in `unit`.
    func travel(for unit: PointerUnit) -> Double {
        switch unit {
        case .cells: Self.checked(travelCells, { $0 > 0 }, Self.defaults.travelCells)
        case .pixels: Self.checked(travelPixels, { $0 > 0 }, Self.defaults.travelPixels)
        }
    }

    /// Height over width of one unit step: the cell aspect for cells, 1 for square pixels.
    func aspect(for unit: PointerUnit) -> Double {
        switch unit {
        case .cells: Self.checked(cellAspect, { $0 > 0 }, Self.defaults.cellAspect)
        case .pixels: 1
        }
    }

    var checkedSensitivity: Double { Self.checked(sensitivity, { $0 > 0 }, Self.defaults.sensitivity) }
    var checkedFullSpeedBand: Double { Self.checked(fullSpeedBand, { $0 >= 0 }, Self.defaults.fullSpeedBand) }
    var checkedFineReach: Double { Self.checked(fineReach, { $0 > 0 }, Self.defaults.fineReach) }
    var checkedMinimumSpeed: Double { Self.checked(minimumSpeed, { $0 > 0 && $0 <= 1 }, Self.defaults.minimumSpeed) }
    var checkedFineFactor: Double { Self.checked(fineFactor, { $0 > 0 }, Self.defaults.fineFactor) }
    var checkedDeadZone: Double { Self.checked(deadZone, { $0 >= 0 }, Self.defaults.deadZone) }
    var checkedMaximumAngleStep: Double {
        Self.checked(maximumAngleStep, { $0 > 0 && $0 <= Double.pi }, Self.defaults.maximumAngleStep)
    }
    var checkedStep: Double { Self.checked(step, { $0 > 0 }, Self.defaults.step) }
    var checkedPageMultiplier: Double { Self.checked(pageMultiplier, { $0 > 0 }, Self.defaults.pageMultiplier) }
    var checkedDoubleClickInterval: Double {
        Self.checked(doubleClickInterval, { $0 >= 0 }, Self.defaults.doubleClickInterval)
    }
    var checkedDoubleClickDistance: Double {
        Self.checked(doubleClickDistance, { $0 >= 0 }, Self.defaults.doubleClickDistance)
    }

    /// The snapping grid, if a usable interval is set.
    var snap: KnobSnap? { snapInterval.flatMap(KnobSnap.init(interval:)) }

    /// The factor a gesture's movement is multiplied by, with or without the fine modifier.
    func speedFactor(fine: Bool) -> Double { fine ? checkedFineFactor : 1 }

    /// The distance between two pointer positions in `unit`, measured in rows (or pixels) so that
    /// a column counts as the fraction of a row that it looks.
    func distance(_ a: KnobPoint, _ b: KnobPoint, unit: PointerUnit) -> Double {
        RealtimeMath.hypot((b.x - a.x) / aspect(for: unit), b.y - a.y)
    }
}
