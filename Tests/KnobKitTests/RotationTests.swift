import TestSupport
import Testing
@testable import KnobKit

@Suite("Rotation gestures and encoder turns")
struct RotationTests {
    @Test("one radian turns 1 / (3π/2) of the range")
    func radianLaw() throws {
        var knob = try Fixture.unitKnob(value: 0.25)
        knob.rotate(by: 0, phase: .began, at: 0)
        let reported = knob.rotate(by: 0.5, phase: .changed, at: 0.1)
        #expect(knob.value == 0.25 + 0.5 / (3 * Double.pi / 2))
        #expect(reported == knob.value)
        knob.rotate(by: -1, phase: .changed, at: 0.2)
        #expect(knob.value == 0.25 + (0.5 - 1) / (3 * Double.pi / 2))
    }

    @Test("many small rotations land exactly where the one large rotation does")
    func rotationsAddUp() throws {
        var one = try Fixture.unitKnob(value: 0.1)
        one.rotate(by: 0, phase: .began, at: 0)
        one.rotate(by: 1, phase: .changed, at: 1)
        var four = try Fixture.unitKnob(value: 0.1)
        four.rotate(by: 0, phase: .began, at: 0)
        for i in 1...4 { four.rotate(by: 0.25, phase: .changed, at: Double(i) / 4) }
        #expect(four.value == one.value)

        // Random splits (in 1/64 rad, so every partial sum is exact) of random totals.
        var rng = SplitMix64(seed: 4)
        for _ in 0..<50 {
            var parts: [Double] = []
            for _ in 0..<Int(rng.next() % 20 + 1) { parts.append(Double(Int(rng.next() % 33) - 16) / 64) }
            let total = parts.reduce(0, +)
            guard total.magnitude < 0.5 * Double.pi else { continue }  // stay inside the range
            var big = try Fixture.unitKnob()
            big.rotate(by: total, phase: .ended, at: 0)
            var small = try Fixture.unitKnob()
            small.rotate(by: 0, phase: .began, at: 0)
            for part in parts { small.rotate(by: part, phase: .changed, at: 0) }
            small.rotate(by: 0, phase: .ended, at: 0)
            #expect(small.value == big.value, "\(parts)")
        }
    }

    @Test("began, changed and ended drive the turning state")
    func phases() throws {
        var knob = try Fixture.unitKnob()
        knob.rotate(by: 0.1, phase: .began, at: 0)
        #expect(knob.state == .turning)
        knob.rotate(by: 0.1, phase: .changed, at: 0.1)
        #expect(knob.state == .turning)
        knob.rotate(by: 0.1, phase: .ended, at: 0.2)
        #expect(knob.state == .idle)
        #expect(knob.value == 0.5 + (0.1 + 0.1 + 0.1) / knob.arc.span)
    }

    @Test("changed or ended without began starts a gesture on the spot")
    func implicitBegin() throws {
        var knob = try Fixture.unitKnob()
        #expect(knob.rotate(by: 0.75, phase: .ended, at: 0) == 0.5 + 0.75 / knob.arc.span)
        #expect(!knob.isTurning)
        knob.rotate(by: 0.75, phase: .changed, at: 1)
        #expect(knob.isTurning)
    }

    @Test("a configured arc changes the rate: one arc span of rotation sweeps the range")
    func customArc() throws {
        var knob = try Fixture.unitKnob(value: 0)
        knob.arc = try KnobArc(startDegrees: -150, endDegrees: 150)
        knob.rotate(by: 1, phase: .ended, at: 0)
        #expect(knob.value == 1 / knob.arc.span)
        knob.rotate(by: knob.arc.span, phase: .ended, at: 1)
        #expect(knob.value == 1)
    }

    @Test("the fine modifier turns a tenth as far")
    func fine() throws {
        var knob = try Fixture.unitKnob()
        knob.rotate(by: 1, phase: .ended, fine: true, at: 0)
        #expect(knob.value == 0.5 + 1 * 0.1 / knob.arc.span)
    }

    @Test("rotating past an end and back responds at once")
    func noDeadTravel() throws {
        var knob = try Fixture.unitKnob()
        knob.rotate(by: 0, phase: .began, at: 0)
        knob.rotate(by: 100, phase: .changed, at: 0.1)
        #expect(knob.value == 1)
        knob.rotate(by: -0.5, phase: .changed, at: 0.2)
        #expect(knob.value.isClose(to: 1 - 0.5 / knob.arc.span, tolerance: 1e-15))
    }

    @Test("non-finite rotations turn nothing")
    func nonFinite() throws {
        var knob = try Fixture.unitKnob()
        for r in [Double.nan, .infinity, -.infinity] {
            knob.rotate(by: r, phase: .ended, at: 0)
            knob.turn(by: r, at: 0)
        }
        #expect(knob.value == 0.5)
    }

    @Test("an encoder turn reports at once and honours snapping like a wheel notch")
    func encoderTurn() throws {
        var behavior = KnobBehavior()
        behavior.snapInterval = 0.125
        var knob = try Fixture.unitKnob(behavior: behavior)
        let tiny = 0.01 * knob.arc.span  // 1 % of the range: less than one interval
        #expect(knob.turn(by: tiny, at: 0) == 0.625)
        #expect(knob.turn(by: -tiny, at: 0.1) == 0.5)
        #expect(knob.turn(by: -tiny, at: 0.2) == 0.375)
    }
}
