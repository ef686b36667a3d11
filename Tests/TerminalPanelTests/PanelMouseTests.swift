import AudioEngine
import KnobKit
import Presets
import Testing
import Parameters
@testable import TerminalPanel

/// The mouse, routed to KnobKit: every expected value comes from a knob driven with the same
/// pointer positions and the same centre, so the test checks the routing (which knob, which
/// point, which unit, which centre) and not KnobKit's arithmetic again.
@Suite("Panel mouse")
struct PanelMouseTests {
    /// The middle cell of knob `index`'s arc in the full 80 × 24 layout.
    func middle(of index: Int, in panel: Panel) -> (x: Int, y: Int) {
        let slot = panel.layout.slots[index]
        return (Int(slot.center.x), Int(slot.center.y))
    }

    func point(_ x: Int, _ y: Int) -> KnobPoint { KnobPoint(x: Double(x) + 0.5, y: Double(y) + 0.5) }

    @Test("a vertical drag on a knob focuses it and turns it as KnobKit's drag does, one undo step")
    func verticalDrag() {
        let (panel, host) = makePanel()
        let gain = 2
        let (x, y) = middle(of: gain, in: panel)
        let center = panel.layout.slots[gain].center
        var reference = referenceKnob(.gain)
        panel.mouse(.press(.left), x: x, y: y, at: 1)
        // The panel sets the drag's feel for the knob's size as it is grabbed.
        reference.behavior = panel.knob(.gain).behavior
        reference.pointerDown(point(x, y), center: center, at: 1)
        #expect(panel.focus == gain)
        #expect(panel.knob(.gain).state == .turning)
        for (i, dy) in [1, 2, 3].enumerated() {
            reference.pointerMoved(point(x, y - dy), at: 1.1 + Double(i) * 0.1)
            panel.mouse(.drag(.left), x: x, y: y - dy, at: 1.1 + Double(i) * 0.1)
        }
        // Sideways, away from the knob: slower (KnobKit's fine reach).
        reference.pointerMoved(point(x + 30, y - 5), at: 1.5)
        panel.mouse(.drag(.left), x: x + 30, y: y - 5, at: 1.5)
        reference.pointerUp(point(x + 30, y - 5), at: 1.6)
        panel.mouse(.release(.left), x: x + 30, y: y - 5, at: 1.6)
        #expect(panel.value(.gain) == reference.value)
        #expect(panel.value(.gain) > LowpassGain.table[.gain].defaultValue)
        #expect(host.values[.gain] == reference.value)
        #expect(panel.knob(.gain).state == .focused)
        #expect(panel.history.undoSteps.count == 1)
        panel.type("u", at: 2)
        #expect(panel.value(.gain) == LowpassGain.table[.gain].defaultValue)
    }

    @Test("the drag keeps its knob wherever the pointer goes; Ctrl on a drag event is fine control")
    func captureAndFine() {
        let (panel, _) = makePanel()
        let (x, y) = middle(of: 0, in: panel)
        var reference = referenceKnob(.cutoff)
        let center = panel.layout.slots[0].center
        panel.mouse(.press(.left), x: x, y: y, at: 0)
        reference.behavior = panel.knob(.cutoff).behavior
        reference.pointerDown(point(x, y), center: center, at: 0)
        // Over the resonance knob, with Ctrl held for part of the way.
        reference.pointerMoved(point(x + 16, y - 2), fine: true, at: 0.1)
        panel.mouse(.drag(.left), x: x + 16, y: y - 2, .ctrl, at: 0.1)
        reference.pointerMoved(point(x + 16, y - 3), at: 0.2)
        panel.mouse(.drag(.left), x: x + 16, y: y - 3, at: 0.2)
        #expect(panel.value(.cutoff) == reference.value)
        #expect(panel.value(.resonance) == LowpassGain.table[.resonance].defaultValue)
        #expect(panel.focus == 0)
    }

    @Test("the wheel turns the knob under the pointer one step per notch, Alt for fine")
    func wheel() {
        let (panel, host) = makePanel()
        let (x, y) = middle(of: 1, in: panel)
        var reference = referenceKnob(.resonance)
        reference.scroll(notches: 1, at: 0)
        reference.scroll(notches: 1, at: 0.1)
        reference.scroll(notches: -1, fine: true, at: 0.2)
        panel.mouse(.wheel(.up), x: x, y: y, at: 0)
        panel.mouse(.wheel(.up), x: x, y: y, at: 0.1)
        panel.mouse(.wheel(.down), x: x, y: y, .alt, at: 0.2)
        #expect(panel.focus == 1)
        #expect(panel.value(.resonance) == reference.value)
        #expect(host.sent.count == 3)
        // Quick notches of one knob are one undo step.
        #expect(panel.history.undoSteps.count == 1)
        // Off every knob, the wheel turns the focused one.
        panel.mouse(.wheel(.up), x: 0, y: 23, at: 0.3)
        reference.scroll(notches: 1, at: 0.3)
        #expect(panel.value(.resonance) == reference.value)
    }

    @Test("a double-click resets to the default, through KnobKit's double-click rule")
    func doubleClick() {
        let (panel, _) = makePanel(values: ParameterValues(table: LowpassGain.table, [.cutoff: 5_000]))
        let (x, y) = middle(of: 0, in: panel)
        panel.mouse(.press(.left), x: x, y: y, at: 1)
        panel.mouse(.release(.left), x: x, y: y, at: 1.05)
        #expect(panel.value(.cutoff) == 5_000)
        panel.mouse(.press(.left), x: x, y: y, at: 1.15)
        panel.mouse(.release(.left), x: x, y: y, at: 1.2)
        #expect(panel.value(.cutoff) == LowpassGain.table[.cutoff].defaultValue)
        // Too slow: two clicks, no reset.
        let (slow, _) = makePanel(values: ParameterValues(table: LowpassGain.table, [.cutoff: 5_000]))
        slow.mouse(.press(.left), x: x, y: y, at: 1)
        slow.mouse(.release(.left), x: x, y: y, at: 1.05)
        slow.mouse(.press(.left), x: x, y: y, at: 1 + KnobBehavior().doubleClickInterval + 0.1)
        #expect(slow.value(.cutoff) == 5_000)
    }

    @Test("c switches to circular drags: the angle around the knob's centre turns it")
    func circular() {
        let (panel, _) = makePanel()
        panel.type("c", at: 0)
        let slot = panel.layout.slots[1]
        let cx = Int(slot.center.x), cy = Int(slot.center.y)
        var reference = referenceKnob(.resonance)
        reference.behavior.dragStyle = .circular
        let path = [(cx - 6, cy), (cx - 5, cy - 2), (cx - 3, cy - 3), (cx, cy - 3), (cx + 3, cy - 3)]
        reference.pointerDown(point(path[0].0, path[0].1), center: slot.center, at: 0)
        panel.mouse(.press(.left), x: path[0].0, y: path[0].1, at: 0)
        for (i, p) in path.dropFirst().enumerated() {
            reference.pointerMoved(point(p.0, p.1), at: 0.1 * Double(i + 1))
            panel.mouse(.drag(.left), x: p.0, y: p.1, at: 0.1 * Double(i + 1))
        }
        #expect(panel.value(.resonance) == reference.value)
        #expect(panel.value(.resonance) > LowpassGain.table[.resonance].defaultValue)
    }

    @Test("pixel reports: hit-testing divides by the cell size, KnobKit gets pixels and a pixel centre")
    func pixels() {
        let (panel, _) = makePanel()
        panel.cellPixels = (10, 20)
        panel.pointerUnit = .pixels
        let slot = panel.layout.slots[2]
        let center = KnobPoint(x: slot.center.x * 10, y: slot.center.y * 20)
        let px = Int(center.x), py = Int(center.y)
        var reference = referenceKnob(.gain)
        // The travel is the drawn knob's: 8 rows of 20 px for a 6-row knob.
        reference.behavior.travelPixels = 160
        reference.pointerDown(KnobPoint(x: Double(px), y: Double(py)), center: center, unit: .pixels, at: 0)
        reference.pointerMoved(KnobPoint(x: Double(px), y: Double(py + 37)), at: 0.1)
        panel.mouse(.press(.left), x: px, y: py, at: 0)
        panel.mouse(.drag(.left), x: px, y: py + 37, at: 0.1)
        #expect(panel.focus == 2)
        #expect(panel.knob(.gain).behavior.travelPixels == 160)
        #expect(panel.value(.gain) == reference.value)
        // 37 px down of a 160 px travel: 37/160 of the range down.
        let spec = LowpassGain.table[.gain]
        #expect(abs(spec.normalized(panel.value(.gain)) - spec.normalized(spec.defaultValue) + 37.0 / 160) < 1e-9)
    }

    @Test("a resize ends a drag where it is and records it")
    func resizeEndsDrag() {
        let (panel, _) = makePanel()
        let (x, y) = middle(of: 0, in: panel)
        panel.mouse(.press(.left), x: x, y: y, at: 0)
        panel.mouse(.drag(.left), x: x, y: y - 2, at: 0.1)
        let reached = panel.value(.cutoff)
        panel.resize(width: 100, height: 30, at: 0.2)
        #expect(!panel.knob(.cutoff).isTurning)
        #expect(panel.value(.cutoff) == reached)
        #expect(panel.history.undoSteps.count == 1)
        // A stray release afterwards turns nothing.
        panel.mouse(.release(.left), x: x, y: y - 9, at: 0.3)
        #expect(panel.value(.cutoff) == reached)
    }

    @Test("clicks off the knobs, other buttons and overlays do nothing")
    func ignored() {
        let (panel, host) = makePanel()
        panel.mouse(.press(.left), x: 0, y: 0, at: 0)
        panel.mouse(.drag(.left), x: 0, y: 5, at: 0.1)
        let (x, y) = middle(of: 1, in: panel)
        panel.mouse(.press(.right), x: x, y: y, at: 0.2)
        panel.type("?", at: 0.3)
        panel.mouse(.wheel(.up), x: x, y: y, at: 0.4)
        #expect(host.sent.isEmpty)
        #expect(panel.focus == 0)
    }
}
