import KnobKit

/// The mouse: presses, drags and releases go to the knob pressed on (it keeps the pointer
/// until the release, wherever the pointer goes — moving sideways away from it is how a
/// vertical drag turns finer); wheel notches go to the knob under the pointer. A click flips
/// a switch, and a click on an enumeration's `‹ label ›` steps to the label on that side;
/// neither is dragged. A click on the pager's `[` or `]` turns the page.
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
            let layout = layout
            guard let index = layout.knob(atX: column, y: row) else {
                if let side = pagerSide(layout, x: column, y: row) { turnPage(by: side) }
                return
            }
            if let capture, capture.index != index { endCapture(at: time) }
            if let steps = clickSteps(layout, index, x: column, y: row) {
                setFocus(index)
                preciseKnob = nil
                turn(index, at: time) { steps == 0 ? $0.flip(at: time) : $0.press(steps > 0 ? .increment : .decrement, at: time) }
                return
            }
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

    /// What a click at (`x`, `y`) on knob `index` does when it turns nothing by dragging: 0
    /// flips a switch, -1 or +1 steps an enumeration (on the left or right half of its label's
    /// row in the full layout, of its line in the compact one); nil for a drag.
    func clickSteps(_ layout: PanelLayout, _ index: Int, x: Int, y: Int) -> Int? {
        if knobs[index].isSwitch { return 0 }
        guard case .enumeration? = knobs[index].scale.spec?.kind, let slot = layout.slot(of: index) else { return nil }
        switch layout.style {
        case .full where y == slot.valueRow:
            return x < slot.valueColumn ? -1 : 1
        case .compact where slot.art.contains(x: x, y: y):
            return x < slot.art.x + slot.art.width / 2 ? -1 : 1
        default:
            return nil
        }
    }

    /// -1 or +1 for a click on the pager's `[` or `]` (the first and last cells of its text).
    func pagerSide(_ layout: PanelLayout, x: Int, y: Int) -> Int? {
        guard let pager = layout.pager, y == pager.y else { return nil }
        let text = PanelRenderer.pagerText(layout, ascii: ascii)
        let start = pager.x + pager.width - 1 - DisplayWidth.of(text)
        if x == start { return -1 }
        if x == start + DisplayWidth.of(text) - 1 { return 1 }
        return nil
    }

    /// Knob `index`'s centre in the pointer's unit.
    func pointerCenter(of index: Int) -> KnobPoint {
        let center = layout.slot(of: index)?.center ?? KnobPoint(x: 0, y: 0)
        if pointerUnit == .pixels, let size = cellPixels {
            return KnobPoint(x: center.x * Double(size.width), y: center.y * Double(size.height))
        }
        return center
    }
}
