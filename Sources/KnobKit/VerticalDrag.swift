import Parameters

/// A vertical drag: up turns the knob up, and the further the pointer strays sideways from the
/// knob's centre, the slower it turns (bradhowes' Knob, with its full-speed band scaled by the
/// travel so it means the same with cell and pixel reports).
///
/// Each pointer event contributes its own vertical movement times the speed at its position and
/// the fine factor in force *for that event*. Nothing is recomputed from the drag's origin, which
/// is why pressing or releasing the fine modifier mid-drag never makes the value jump.
struct VerticalDrag: Sendable, Hashable {
    /// The knob's centre, in pointer units.
    let center: KnobPoint
    let unit: PointerUnit
    /// The previous pointer position.
    private(set) var last: KnobPoint

    init(at point: KnobPoint, center: KnobPoint, unit: PointerUnit) {
        self.center = center
        self.unit = unit
        last = point
    }

    /// The movement of one event, in rows (or pixels) of effective travel: positive upward.
    mutating func move(to point: KnobPoint, fine: Bool, behavior: KnobBehavior) -> Double {
        guard point.isFinite else { return 0 }
        let rise = last.y - point.y
        last = point
        let sideways = abs(point.x - center.x) / behavior.aspect(for: unit)
        return rise * Self.speed(sideways: sideways, travel: behavior.travel(for: unit), behavior: behavior)
            * behavior.speedFactor(fine: fine)
    }

    /// The speed (0 < speed ≤ 1) of a drag whose pointer is `sideways` rows (or pixels) from
    /// the knob's centre: 1 inside the full-speed band, then falling over the fine reach to the
    /// minimum, linearly or geometrically (``KnobSpeedFalloff``). The fall starts at the band's
    /// edge, so the speed is continuous.
    static func speed(sideways: Double, travel: Double, behavior: KnobBehavior) -> Double {
        let band = behavior.checkedFullSpeedBand * travel
        let beyond = sideways - band
        guard beyond > 0 else { return 1 }
        let reach = behavior.checkedFineReach * travel
        guard reach.isFinite, reach > 0 else { return behavior.checkedMinimumSpeed }
        switch behavior.speedFalloff {
        case .linear:
            return max(behavior.checkedMinimumSpeed, 1 - beyond / reach)
        case .geometric:
            guard beyond < reach else { return behavior.checkedMinimumSpeed }
            return max(behavior.checkedMinimumSpeed, RealtimeMath.exp2(RealtimeMath.log2(behavior.checkedMinimumSpeed) * beyond / reach))
        }
    }
}
