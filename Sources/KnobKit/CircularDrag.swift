import Parameters

/// A circular drag: the pointer's angle around the knob's centre turns the knob (MHRotaryKnob).
///
/// Only the change of angle counts, never the angle itself, so the first event of a drag turns
/// nothing and the value cannot jump to where the pointer happens to be. Angles are measured in
/// (−180°, 180°] from 12 o'clock with the cut at 6 o'clock, inside the gap: crossing it makes a
/// change near 360°, which the per-event limit rejects, so the value never jumps across the gap.
struct CircularDrag: Sendable, Hashable {
    let center: KnobPoint
    let unit: PointerUnit
    /// The pointer angle of the previous usable event; nil before the first one, or after the
    /// pointer passed through the dead zone.
    private(set) var anchor: Double?

    init(at point: KnobPoint, center: KnobPoint, unit: PointerUnit, behavior: KnobBehavior) {
        self.center = center
        self.unit = unit
        anchor = Self.angle(of: point, around: center, unit: unit, behavior: behavior)
    }

    /// The accepted change of angle (radians, clockwise positive) of one event; 0 when the
    /// pointer is in the dead zone, anchors a fresh angle, or turned more than the limit.
    mutating func move(to point: KnobPoint, behavior: KnobBehavior) -> Double {
        guard let angle = Self.angle(of: point, around: center, unit: unit, behavior: behavior) else {
            anchor = nil
            return 0
        }
        defer { anchor = angle }
        guard let previous = anchor else { return 0 }
        let change = angle - previous
        // Re-anchoring even after a rejection lets tracking resume with the next event.
        return abs(change) > behavior.checkedMaximumAngleStep ? 0 : change
    }

    /// The angle of `point` around `center`, clockwise from 12 o'clock in (−π, π], with the cell
    /// aspect corrected; nil inside the dead zone or for a non-finite point.
    static func angle(of point: KnobPoint, around center: KnobPoint, unit: PointerUnit, behavior: KnobBehavior) -> Double? {
        guard point.isFinite, center.isFinite else { return nil }
        let dx = (point.x - center.x) / behavior.aspect(for: unit)
        let dy = point.y - center.y
        let radius = RealtimeMath.hypot(dx, dy)
        guard radius.isFinite, radius > 0,
              radius >= behavior.checkedDeadZone * behavior.travel(for: unit) else { return nil }
        // Screen y points down: 12 o'clock is −y, and clockwise runs toward +x.
        return RealtimeMath.atan2(dx, -dy)
    }
}
