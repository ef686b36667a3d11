import Parameters
import Testing
@testable import KnobKit

@Suite("Circular drag")
struct CircularDragTests {
    let center = Fixture.center
    let span = KnobArc.standard.span

    func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

    @Test("the pointer angle is measured clockwise from 12 o'clock with the cell aspect corrected")
    func aspectCorrection() throws {
        let b = KnobBehavior()
        // 6 columns right and 3 rows up: a square offset on screen, so 45°.
        let cells = CircularDrag.angle(of: KnobPoint(x: 46, y: 9), around: center, unit: .cells, behavior: b)
        #expect(cells == RealtimeMath.atan2(3, 3))
        #expect(try #require(cells).isClose(to: Double.pi / 4, tolerance: 1e-15))
        // The same numbers as pixels are not corrected.
        let pixels = CircularDrag.angle(of: KnobPoint(x: 460, y: 270), around: KnobPoint(x: 400, y: 300),
                                        unit: .pixels, behavior: b)
        #expect(pixels == RealtimeMath.atan2(60, 30))
        // The four directions.
        for (degrees, expected) in [(0.0, 0.0), (90, Double.pi / 2), (-90, -Double.pi / 2), (180, Double.pi)] {
            let angle = CircularDrag.angle(of: Fixture.cellPoint(degrees: degrees), around: center, unit: .cells, behavior: b)
            #expect(angle?.isClose(to: expected, tolerance: 1e-15) == true, "\(degrees)°")
        }
    }

    @Test("the first event of a drag never turns the knob, wherever the pointer is")
    func firstEventNoJump() throws {
        for degrees in stride(from: -170.0, through: 180, by: 10) {
            var knob = try Fixture.unitKnob(value: 0.3, behavior: Fixture.circular)
            #expect(knob.pointerDown(Fixture.cellPoint(degrees: degrees), center: center, at: 0) == nil)
            #expect(knob.value == 0.3)
        }
    }

    @Test("turning the pointer by θ turns the knob by θ / 270° of the range; clockwise increases")
    func angleLaw() throws {
        var knob = try Fixture.unitKnob(behavior: Fixture.circular)
        knob.pointerDown(Fixture.cellPoint(degrees: 0), center: center, at: 0)
        for (i, degrees) in [10.0, 20, 30].enumerated() {
            knob.pointerMoved(Fixture.cellPoint(degrees: degrees), at: Double(i + 1) / 10)
        }
        #expect(knob.value.isClose(to: 0.5 + radians(30) / span))
        for (i, degrees) in [0.0, -30, -60].enumerated() {
            knob.pointerMoved(Fixture.cellPoint(degrees: degrees), at: 0.4 + Double(i) / 10)
        }
        #expect(knob.value.isClose(to: 0.5 - radians(60) / span))
    }

    @Test("the fine modifier turns a tenth as far")
    func fine() throws {
        var knob = try Fixture.unitKnob(behavior: Fixture.circular)
        knob.pointerDown(Fixture.cellPoint(degrees: 0), center: center, at: 0)
        knob.pointerMoved(Fixture.cellPoint(degrees: 40), fine: true, at: 0.1)
        #expect(knob.value.isClose(to: 0.5 + radians(40) * 0.1 / span))
    }

    @Test("pointer events inside the dead zone are ignored, and leaving it does not jump")
    func deadZone() throws {
        var knob = try Fixture.unitKnob(behavior: Fixture.circular)
        let deadRadius = knob.behavior.deadZone * knob.behavior.travelCells  // 0.8 rows
        knob.pointerDown(Fixture.cellPoint(degrees: 0, radius: deadRadius / 2), center: center, at: 0)
        #expect(knob.pointerMoved(Fixture.cellPoint(degrees: 170, radius: deadRadius / 2), at: 0.1) == nil)
        // First event outside: anchors only.
        #expect(knob.pointerMoved(Fixture.cellPoint(degrees: 90), at: 0.2) == nil)
        #expect(knob.value == 0.5)
        knob.pointerMoved(Fixture.cellPoint(degrees: 110), at: 0.3)
        #expect(knob.value.isClose(to: 0.5 + radians(20) / span))
        // Through the centre to the opposite side: no jump either.
        let before = knob.value
        knob.pointerMoved(center, at: 0.4)
        knob.pointerMoved(Fixture.cellPoint(degrees: -70), at: 0.5)
        #expect(knob.value == before)
    }

    @Test("a change over 45° in one event is ignored, and tracking resumes from there")
    func jumpRejection() throws {
        var knob = try Fixture.unitKnob(behavior: Fixture.circular)
        knob.pointerDown(Fixture.cellPoint(degrees: 0), center: center, at: 0)
        #expect(knob.pointerMoved(Fixture.cellPoint(degrees: 46), at: 0.1) == nil)
        #expect(knob.value == 0.5)
        knob.pointerMoved(Fixture.cellPoint(degrees: 56), at: 0.2)
        #expect(knob.value.isClose(to: 0.5 + radians(10) / span))
        let before = knob.value
        knob.pointerMoved(Fixture.cellPoint(degrees: 100), at: 0.3)  // 44°: accepted
        #expect(knob.value.isClose(to: before + radians(44) / span))
    }

    @Test("crossing 6 o'clock (inside the gap) never carries the value across the gap")
    func gapCrossing() throws {
        var knob = try Fixture.unitKnob(value: 0.97, behavior: Fixture.circular)
        knob.pointerDown(Fixture.cellPoint(degrees: 170), center: center, at: 0)
        knob.pointerMoved(Fixture.cellPoint(degrees: 179), at: 0.1)
        let before = knob.value
        // 179° → −179° is a raw change of −358°: rejected.
        #expect(knob.pointerMoved(Fixture.cellPoint(degrees: -179), at: 0.2) == nil)
        #expect(knob.value == before)
        // Carrying on clockwise turns up (and stops at the end), never jumps to the start.
        knob.pointerMoved(Fixture.cellPoint(degrees: -150), at: 0.3)
        #expect(knob.value >= before)
        #expect(knob.value == 1)
    }

    @Test("sweeping clockwise round and round only ever increases the value, up to the end")
    func fullSweep() throws {
        var knob = try Fixture.unitKnob(value: 0, behavior: Fixture.circular)
        knob.pointerDown(Fixture.cellPoint(degrees: -135), center: center, at: 0)
        var previous = knob.value
        var t = 0.0
        for step in 1...216 {  // three turns in 5° steps
            t += 0.01
            knob.pointerMoved(Fixture.cellPoint(degrees: -135 + Double(step) * 5), at: t)
            #expect(knob.value >= previous, "step \(step)")
            previous = knob.value
        }
        #expect(knob.value == 1)
        // And back counter-clockwise: only ever decreases, down to the start.
        for step in 1...216 {
            t += 0.01
            knob.pointerMoved(Fixture.cellPoint(degrees: 945 - Double(step) * 5), at: t)
            #expect(knob.value <= previous, "back step \(step)")
            previous = knob.value
        }
        #expect(knob.value == 0)
    }

    @Test("pixel reports measure the angle with square pixels")
    func pixels() throws {
        var knob = try Fixture.unitKnob(behavior: Fixture.circular)
        let c = KnobPoint(x: 400, y: 300)
        knob.pointerDown(KnobPoint(x: 400, y: 200), center: c, unit: .pixels, at: 0)  // 12 o'clock
        knob.pointerMoved(KnobPoint(x: 460, y: 220), at: 0.1)  // (60, −80): atan(3/4) clockwise
        #expect(knob.value.isClose(to: 0.5 + RealtimeMath.atan2(3, 4) / span))
        #expect(RealtimeMath.atan2(3, 4).isClose(to: 0.6435011087932844))
    }
}
