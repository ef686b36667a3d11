import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Snapping")
struct SnappingTests {
    @Test("the grid is the multiples of the interval; next moves strictly past the value")
    func gridLaw() throws {
        let snap = try #require(KnobSnap(interval: 0.5))
        #expect(snap.snap(1.2) == 1)
        #expect(snap.snap(1.25) == 1.5)
        #expect(snap.snap(-1.25) == -1.5)
        #expect(snap.next(from: 1, up: true) == 1.5)
        #expect(snap.next(from: 1, up: false) == 0.5)
        #expect(snap.next(from: 1.2, up: true) == 1.5)
        #expect(snap.next(from: 1.2, up: false) == 1)
        // A value that is on the grid up to rounding counts as on it.
        let tenth = try #require(KnobSnap(interval: 0.1))
        #expect(tenth.next(from: 3 * 0.1, up: true) == 4 * 0.1)
        #expect(tenth.next(from: 3 * 0.1, up: false) == 2 * 0.1)
    }

    @Test("an interval that is not a finite positive number means no snapping",
          arguments: [0.0, -1, Double.nan, Double.infinity])
    func unusableInterval(interval: Double) throws {
        #expect(KnobSnap(interval: interval) == nil)
        var behavior = KnobBehavior()
        behavior.snapInterval = interval
        var knob = try Fixture.unitKnob(behavior: behavior)
        #expect(knob.scroll(notches: 1, at: 0) == 0.5 + 0.01)
    }

    @Test("drag values land on the grid, and a slow drag still crosses intervals")
    func dragSnaps() {
        var knob = Knob(.gain)
        knob.behavior.snapInterval = 1
        let spec = LowpassGain.table[.gain]
        let start = spec.normalized(spec.defaultValue)
        let c = KnobPoint(x: 400, y: 300)
        knob.pointerDown(c, center: c, unit: .pixels, at: 0)
        for px in 1...30 {
            knob.pointerMoved(KnobPoint(x: 400, y: 300 - Double(px)), at: Double(px) / 100)
            let unsnapped = spec.value(atNormalized: start + Double(px) / 200)
            #expect(knob.value == unsnapped.rounded(.toNearestOrAwayFromZero), "\(px) px")
        }
        #expect(knob.value > 9)  // 30 px of 200 is 10.8 dB: the 0.36 dB moves were not lost
    }

    @Test("each wheel notch lands on the grid and moves at least one interval")
    func wheelHonoursSnapping() {
        var knob = Knob(.gain)
        knob.behavior.snapInterval = 2  // larger than one 1 % step (0.72 dB)
        for i in 1...5 {
            knob.scroll(notches: 1, at: Double(i))
            #expect(knob.value == Double(2 * i))
        }
        // Smaller than a step: each notch goes one step (0.72 dB) and snaps to the nearest half.
        knob.behavior.snapInterval = 0.5
        knob.setValue(0, at: 10)
        let spec = LowpassGain.table[.gain]
        for i in 1...10 {
            let before = knob.value
            let target = spec.value(atNormalized: spec.normalized(before) + 0.01)
            knob.scroll(notches: 1, at: 10 + Double(i))
            #expect(knob.value == (target / 0.5).rounded(.toNearestOrAwayFromZero) * 0.5)
            #expect(knob.value - before >= 0.5)
        }
    }

    @Test("range ends off the grid stay reachable")
    func endsReachable() throws {
        var behavior = KnobBehavior()
        behavior.snapInterval = 3
        var knob = Knob(scale: try KnobScale(name: "Steps", range: 0...10, defaultValue: 9), behavior: behavior)
        #expect(knob.scroll(notches: 1, at: 0) == 10)
        #expect(knob.scroll(notches: 1, at: 1) == nil)
        #expect(knob.scroll(notches: -1, at: 2) == 9)
        knob.press(.end, at: 3)
        #expect(knob.value == 10)
    }

    @Test("snapping applies to rotation gestures too")
    func rotationSnaps() throws {
        var behavior = KnobBehavior()
        behavior.snapInterval = 0.25
        var knob = try Fixture.unitKnob(behavior: behavior)
        knob.rotate(by: 0, phase: .began, at: 0)
        for i in 1...20 {
            knob.rotate(by: 0.05, phase: .changed, at: Double(i))
            let unsnapped = 0.5 + Double(i) * 0.05 / knob.arc.span
            #expect(knob.value == min((unsnapped / 0.25).rounded(.toNearestOrAwayFromZero) * 0.25, 1))
        }
    }
}
