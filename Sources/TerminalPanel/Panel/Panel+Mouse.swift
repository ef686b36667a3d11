import KnobKit

/// The mouse: presses, drags and releases go to the knob pressed on (it keeps the pointer
/// until the release, wherever the pointer goes — moving sideways away from it is how a
/// vertical drag turns finer); wheel notches go to the knob under the pointer.
extension Panel {
    func handleMouse(_ mouse: MouseEvent, at time: Double) {
        guard mode == .normal else {
            if case .browser(var browser) = mode, case .wheel(let direction) = mouse.kind {
                browser.move(by: direction == .down ? 1 : (direction == .up ? -1 : 0))
                mode = .browser(browser)
            }
            return
        }
        let (column, row) = cell(of: mouse)
        let point = pointerPoint(of: mouse)
        let fine = mouse.modifiers.isFine
        switch mouse.kind {
        case .press(.left):
            guard let index = layout.knob(atX: column, y: row) else { return }
            if let capture, capture.index != index { endCapture(at: time) }
            setFocus(index)
            if capture == nil {
                capture = (index, knobs[index].value)
                prepareDrag(index)
            }
            let center = pointerCenter(of: index)
            if let value = knobs[index].pointerDown(point, center: center, unit: pointerUnit, fine: fine, at: time) {
                host.set([ids[index]: value])
            }
        case .drag(.left):
            guard let capture else { return }
            // Fine, or slowed to a tenth or less by moving sideways: the value shows more digits.
            let slow = (knobs[capture.index].dragSpeed(at: point) ?? 1) <= Self.preciseDragSpeed
            preciseKnob = fine || slow ? capture.index : nil
            if let value = knobs[capture.index].pointerMoved(point, fine: fine, at: time) {
                host.set([ids[capture.index]: value])
            }
        case .release(.left):
            guard let capture else { return }
            if let value = knobs[capture.index].pointerUp(point, fine: fine, at: time) {
                host.set([ids[capture.index]: value])
            }
            finishCapture(at: time)
        case .wheel(let direction):
            let notches = direction == .up ? 1 : (direction == .down ? -1 : 0)
            guard notches != 0, capture == nil else { return }
            let index = layout.knob(atX: column, y: row) ?? focus
            setFocus(index)
            preciseKnob = fine ? index : nil
            turn(index, burst: true, at: time) { $0.scroll(notches: notches, fine: fine, at: time) }
        default:
            break
        }
    }

    /// Ends a drag without its release (the window resized, another knob was pressed, quit):
    /// the knob keeps the value it reached, and the move is recorded.
    func endCapture(at time: Double) {
        guard let capture else { return }
        knobs[capture.index].cancelGesture()
        finishCapture(at: time)
    }

    private func finishCapture(at time: Double) {
        guard let capture else { return }
        history.record([UndoHistory.Change(id: ids[capture.index], before: capture.start, after: knobs[capture.index].value)], at: time)
        self.capture = nil
    }

    /// The cell a report points at (pixel reports divided by the cell size).
    func cell(of mouse: MouseEvent) -> (Int, Int) {
        if pointerUnit == .pixels, let size = cellPixels, size.width > 0, size.height > 0 {
            return (mouse.x / size.width, mouse.y / size.height)
        }
        return (mouse.x, mouse.y)
    }

    /// The pointer in the unit KnobKit is told: the middle of the reported cell, or the pixel.
    func pointerPoint(of mouse: MouseEvent) -> KnobPoint {
        pointerUnit == .pixels && cellPixels != nil
            ? KnobPoint(x: Double(mouse.x), y: Double(mouse.y))
            : KnobPoint(x: Double(mouse.x) + 0.5, y: Double(mouse.y) + 0.5)
    }

    /// Knob `index`'s centre in the pointer's unit.
    func pointerCenter(of index: Int) -> KnobPoint {
        let center = layout.slots[index].center
        if pointerUnit == .pixels, let size = cellPixels {
            return KnobPoint(x: center.x * Double(size.width), y: center.y * Double(size.height))
        }
        return center
    }
}
