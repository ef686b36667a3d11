/// Pointer gestures: vertical or circular drags, and double-click reset.
extension Knob {
    /// A button pressed on the knob. Starts a drag in the style of ``KnobBehavior/dragStyle``,
    /// or, as the second press of a double-click, resets the knob to its default.
    ///
    /// The press itself never turns the knob (no jump to where the pointer is); it focuses it.
    /// A press while a gesture is still open (its release got lost) ends that gesture first.
    ///
    /// - Parameters:
    ///   - point: where the pointer is, in `unit`.
    ///   - center: the knob's centre, in the same unit (a half cell is fine).
    @discardableResult
    public mutating func pointerDown(
        _ point: KnobPoint, center: KnobPoint, unit: PointerUnit = .cells, fine: Bool = false, at time: Double
    ) -> Double? {
        guard isEnabled, point.isFinite, center.isFinite else { return nil }
        let pending = endGesture(at: time)
        isFocused = true
        if clicks.press(at: point, time: time, unit: unit, behavior: behavior) {
            gesture = .pointer(PointerGesture(track: KnobTrack(start: position, divisor: 1), drag: .consumed))
            return apply(defaultValue, at: time, animated: true, byHand: true, discrete: true) ?? pending
        }
        switch behavior.dragStyle {
        case .vertical:
            let divisor = behavior.travel(for: unit) * behavior.checkedSensitivity
            gesture = .pointer(PointerGesture(
                track: KnobTrack(start: position, divisor: divisor),
                drag: .vertical(VerticalDrag(at: point, center: center, unit: unit))))
        case .circular:
            gesture = .pointer(PointerGesture(
                track: KnobTrack(start: position, divisor: arc.span),
                drag: .circular(CircularDrag(at: point, center: center, unit: unit, behavior: behavior))))
        }
        return pending
    }

    /// The pointer moved with the button held. `fine` may change from one event to the next:
    /// it scales only this event's movement, so the value never jumps when it does.
    @discardableResult
    public mutating func pointerMoved(_ point: KnobPoint, fine: Bool = false, at time: Double) -> Double? {
        guard isEnabled, point.isFinite, case .pointer(var g)? = gesture else { return nil }
        clicks.move(to: point, behavior: behavior)
        let movement: Double
        switch g.drag {
        case .vertical(var drag):
            movement = drag.move(to: point, fine: fine, behavior: behavior)
            g.drag = .vertical(drag)
        case .circular(var drag):
            movement = drag.move(to: point, behavior: behavior) * behavior.speedFactor(fine: fine)
            g.drag = .circular(drag)
        case .consumed:
            return nil
        }
        g.track.add(movement)
        gesture = .pointer(g)
        return apply(snapped(scale.value(atNormalized: g.track.position)), at: time, animated: false, byHand: true, discrete: false)
    }

    /// How fast a vertical drag in progress turns with the pointer at `point` (1 inside the
    /// full-speed band, less sideways); nil when no vertical drag is in progress. A panel shows
    /// more digits while a drag is slow.
    public func dragSpeed(at point: KnobPoint) -> Double? {
        guard case .pointer(let g)? = gesture, case .vertical(let drag) = g.drag, point.isFinite else { return nil }
        let sideways = abs(point.x - drag.center.x) / behavior.aspect(for: drag.unit)
        return VerticalDrag.speed(sideways: sideways, travel: behavior.travel(for: drag.unit), behavior: behavior)
    }

    /// The button released: the last movement counts, then the drag ends (and reports, when
    /// reporting waits for the release). A release with no press is ignored.
    @discardableResult
    public mutating func pointerUp(_ point: KnobPoint, fine: Bool = false, at time: Double) -> Double? {
        guard isEnabled, case .pointer? = gesture else { return nil }
        let moved = pointerMoved(point, fine: fine, at: time)
        return endGesture(at: time) ?? moved
    }
}
