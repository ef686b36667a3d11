/// Recognises a double-click: a second press soon after the first, close to it, with no drag in
/// between (a press that turned the knob is not half of a double-click).
struct DoubleClickDetector: Sendable, Hashable {
    private struct Click: Sendable, Hashable {
        let point: KnobPoint
        let time: Double
        let unit: PointerUnit
        var moved = false
    }

    private var first: Click?

    /// Records a press; true when it completes a double-click. A completed double-click is
    /// forgotten, so a triple click is one double-click, not two.
    mutating func press(at point: KnobPoint, time: Double, unit: PointerUnit, behavior: KnobBehavior) -> Bool {
        if let click = first, !click.moved, click.unit == unit, time >= click.time,
           time - click.time <= behavior.checkedDoubleClickInterval,
           behavior.distance(click.point, point, unit: unit) <= slop(unit, behavior) {
            first = nil
            return true
        }
        first = time.isFinite ? Click(point: point, time: time, unit: unit) : nil
        return false
    }

    /// Notes pointer movement while the button is down: moving beyond the slop spoils the click.
    mutating func move(to point: KnobPoint, behavior: KnobBehavior) {
        guard var click = first else { return }
        if !(behavior.distance(click.point, point, unit: click.unit) <= slop(click.unit, behavior)) {
            click.moved = true
            first = click
        }
    }

    /// Forgets any pending first click.
    mutating func reset() { first = nil }

    private func slop(_ unit: PointerUnit, _ behavior: KnobBehavior) -> Double {
        behavior.checkedDoubleClickDistance * behavior.travel(for: unit)
    }
}
