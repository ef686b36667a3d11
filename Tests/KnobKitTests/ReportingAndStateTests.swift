import Testing
@testable import KnobKit

@Suite("Reporting, states and enablement")
struct ReportingAndStateTests {
    let center = Fixture.center

    func up(_ rows: Double) -> KnobPoint { KnobPoint(x: center.x, y: center.y - rows) }

    @Test("continuous reporting hands over every change as it happens")
    func continuous() throws {
        var knob = try Fixture.unitKnob()
        knob.pointerDown(center, center: center, at: 0)
        for i in 1...3 {
            let reported = knob.pointerMoved(up(Double(i)), at: Double(i))
            #expect(reported == 0.5 + Double(i) / 8)
            #expect(knob.reportedValue == knob.value)
        }
        #expect(knob.pointerUp(up(3), at: 4) == nil)  // nothing left to send
    }

    @Test("on-release reporting holds a drag's changes until the release, then reports once")
    func onRelease() throws {
        var behavior = KnobBehavior()
        behavior.reporting = .onRelease
        var knob = try Fixture.unitKnob(behavior: behavior)
        knob.pointerDown(center, center: center, at: 0)
        for i in 1...3 {
            #expect(knob.pointerMoved(up(Double(i)), at: Double(i)) == nil)
            #expect(knob.value == 0.5 + Double(i) / 8)  // the picture still follows
            #expect(knob.reportedValue == 0.5)
        }
        #expect(knob.pointerUp(up(3), at: 4) == 0.5 + 3.0 / 8)
        #expect(knob.reportedValue == knob.value)
        // A drag that ends where it began reports nothing.
        knob.pointerDown(center, center: center, at: 5)
        knob.pointerMoved(up(1), at: 6)
        #expect(knob.pointerUp(center, at: 7) == nil)
    }

    @Test("on-release reporting holds rotations until the gesture ends")
    func onReleaseRotation() throws {
        var behavior = KnobBehavior()
        behavior.reporting = .onRelease
        var knob = try Fixture.unitKnob(behavior: behavior)
        #expect(knob.rotate(by: 0.5, phase: .began, at: 0) == nil)
        #expect(knob.rotate(by: 0.5, phase: .changed, at: 1) == nil)
        #expect(knob.rotate(by: 0, phase: .ended, at: 2) == 0.5 + 1 / knob.arc.span)
    }

    @Test("wheel, keys, typed values and resets report at once in either mode")
    func discreteReportAtOnce() throws {
        for reporting in [KnobReporting.continuous, .onRelease] {
            var behavior = KnobBehavior()
            behavior.reporting = reporting
            var knob = try Fixture.unitKnob(behavior: behavior)
            #expect(knob.scroll(notches: 1, at: 0) == 0.5 + 0.01)
            #expect(knob.press(.end, at: 1) == 1)
            #expect(try knob.enter("0.25", at: 2) == 0.25)
            #expect(knob.resetToDefault(at: 3) == 0.5)
        }
    }

    @Test("a key during a held drag reports at once, and the drag carries on from the new value")
    func keyDuringDrag() throws {
        var behavior = KnobBehavior()
        behavior.reporting = .onRelease
        var knob = try Fixture.unitKnob(behavior: behavior)
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(up(1), at: 1)
        #expect(knob.press(.pageUp, at: 2) == 0.5 + 1.0 / 8 + 0.1)
        knob.pointerMoved(up(2), at: 3)
        #expect(knob.value == 0.5 + 1.0 / 8 + 0.1 + 1.0 / 8)
    }

    @Test("cancelling a gesture returns to the last reported value")
    func cancel() throws {
        var behavior = KnobBehavior()
        behavior.reporting = .onRelease
        var held = try Fixture.unitKnob(behavior: behavior)
        held.pointerDown(center, center: center, at: 0)
        held.pointerMoved(up(2), at: 1)
        held.handle(.cancel, at: 2)
        #expect(held.value == 0.5)
        #expect(held.state == .focused)

        var live = try Fixture.unitKnob()
        live.pointerDown(center, center: center, at: 0)
        live.pointerMoved(up(2), at: 1)
        live.cancelGesture()
        #expect(live.value == 0.75)  // the engine has it already
    }

    @Test("states: idle, focused, turning, disabled")
    func states() throws {
        var knob = try Fixture.unitKnob()
        #expect(knob.state == .idle)
        knob.isFocused = true
        #expect(knob.state == .focused)
        knob.pointerDown(center, center: center, at: 0)
        #expect(knob.state == .turning)
        knob.pointerUp(center, at: 1)
        #expect(knob.state == .focused)
        knob.isFocused = false
        knob.rotate(by: 0, phase: .began, at: 2)
        #expect(knob.state == .turning)
        knob.isEnabled = false
        #expect(knob.state == .disabled)
        #expect(!knob.isTurning)
    }

    @Test("a disabled knob ignores every gesture, key and typed value, but code can still set it")
    func disabled() throws {
        var knob = try Fixture.unitKnob()
        knob.isEnabled = false
        #expect(knob.pointerDown(center, center: center, at: 0) == nil)
        #expect(knob.pointerMoved(up(3), at: 0.1) == nil)
        #expect(knob.pointerUp(up(3), at: 0.2) == nil)
        #expect(knob.rotate(by: 1, phase: .ended, at: 0.3) == nil)
        #expect(knob.turn(by: 1, at: 0.3) == nil)
        #expect(knob.scroll(notches: 4, at: 0.4) == nil)
        for key in KnobKey.allCases { #expect(knob.press(key, at: 0.5) == nil) }
        #expect(try knob.enter("0.9", at: 0.6) == nil)
        #expect(knob.resetToDefault(at: 0.7) == nil)
        #expect(knob.value == 0.5)
        #expect(knob.setValue(0.3, at: 1) == 0.3)
        #expect(knob.value == 0.3)
    }

    @Test("disabling mid-drag cancels the drag")
    func disableMidDrag() throws {
        var behavior = KnobBehavior()
        behavior.reporting = .onRelease
        var knob = try Fixture.unitKnob(behavior: behavior)
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(up(2), at: 1)
        knob.isEnabled = false
        #expect(knob.value == 0.5)
        knob.isEnabled = true
        #expect(knob.pointerMoved(up(3), at: 2) == nil)  // the drag is gone
        #expect(knob.value == 0.5)
    }

    @Test("a press while a drag is open (its release was lost) ends that drag first")
    func lostRelease() throws {
        var behavior = KnobBehavior()
        behavior.reporting = .onRelease
        var knob = try Fixture.unitKnob(behavior: behavior)
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(up(2), at: 1)
        #expect(knob.pointerDown(center, center: center, at: 5) == 0.75)
        knob.pointerMoved(up(1), at: 6)
        #expect(knob.value == 0.75 + 1.0 / 8)
    }

    @Test("setting the value from code reports only a change, ignores non-finite values, clamps the rest")
    func setValueFromCode() throws {
        var knob = try Fixture.unitKnob()
        #expect(knob.setValue(0.5, at: 0) == nil)
        #expect(knob.setValue(0.25, at: 0) == 0.25)
        #expect(knob.setValue(.nan, at: 0) == nil)
        #expect(knob.setValue(.infinity, at: 0) == nil)
        #expect(knob.setValue(3, at: 0) == 1)
        #expect(knob.reportedValue == 1)
    }

    @Test("a value set from code mid-drag becomes where the drag carries on from")
    func setValueMidDrag() throws {
        var knob = try Fixture.unitKnob()
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(up(1), at: 1)
        knob.setValue(0.25, at: 2)
        knob.pointerMoved(up(2), at: 3)
        #expect(knob.value == 0.25 + 1.0 / 8)
    }

    @Test("handle(_:) does exactly what the individual methods do")
    func handleDispatch() throws {
        var a = try Fixture.unitKnob()
        var b = try Fixture.unitKnob()
        let inputs: [KnobInput] = [
            .pointerDown(center, center: center, unit: .cells, fine: false), .pointerMoved(up(1), fine: true),
            .pointerMoved(up(2), fine: false), .pointerUp(up(2), fine: false), .wheel(notches: 2, fine: true),
            .key(.pageDown, fine: false), .rotation(radians: 0.5, phase: .began, fine: false),
            .rotation(radians: 0.25, phase: .ended, fine: true), .cancel,
        ]
        for (i, input) in inputs.enumerated() { a.handle(input, at: Double(i)) }
        b.pointerDown(center, center: center, unit: .cells, fine: false, at: 0)
        b.pointerMoved(up(1), fine: true, at: 1)
        b.pointerMoved(up(2), fine: false, at: 2)
        b.pointerUp(up(2), fine: false, at: 3)
        b.scroll(notches: 2, fine: true, at: 4)
        b.press(.pageDown, at: 5)
        b.rotate(by: 0.5, phase: .began, at: 6)
        b.rotate(by: 0.25, phase: .ended, fine: true, at: 7)
        b.cancelGesture()
        #expect(a == b)
    }
}
