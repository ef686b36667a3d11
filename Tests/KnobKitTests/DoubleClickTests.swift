import Testing
@testable import KnobKit

@Suite("Double-click resets to the default")
struct DoubleClickTests {
    let center = Fixture.center
    let spot = KnobPoint(x: 41, y: 11)

    /// A knob at 0.8 (default 0.5) that has had one click at `spot` at time 1.
    func clickedOnce(behavior: KnobBehavior = KnobBehavior(), unit: PointerUnit = .cells, at point: KnobPoint? = nil) throws -> Knob {
        var knob = try Fixture.unitKnob(value: 0.8, behavior: behavior)
        let p = point ?? spot
        knob.pointerDown(p, center: center, unit: unit, at: 1)
        knob.pointerUp(p, at: 1.05)
        return knob
    }

    @Test("two presses in the same place within the interval reset the knob, gliding")
    func resets() throws {
        var knob = try clickedOnce()
        #expect(knob.pointerDown(spot, center: center, at: 1.2) == 0.5)
        #expect(knob.value == knob.defaultValue)
        #expect(knob.isAnimating(at: 1.3))
        #expect(knob.label(at: 1.3).showsValue)
    }

    @Test("the interval is inclusive: a press just inside counts, just outside does not")
    func intervalBoundary() throws {
        var behavior = KnobBehavior()
        behavior.doubleClickInterval = 0.25
        var inside = try clickedOnce(behavior: behavior)
        inside.pointerDown(spot, center: center, at: 1.25)
        #expect(inside.value == 0.5)
        var outside = try clickedOnce(behavior: behavior)
        outside.pointerDown(spot, center: center, at: 1.25.nextUp)
        #expect(outside.value == 0.8)
    }

    @Test("the default interval is about 300 ms")
    func defaultInterval() throws {
        #expect(KnobBehavior().doubleClickInterval == 0.3)
        var quick = try clickedOnce()
        quick.pointerDown(spot, center: center, at: 1.29)
        #expect(quick.value == 0.5)
        var slow = try clickedOnce()
        slow.pointerDown(spot, center: center, at: 1.31)
        #expect(slow.value == 0.8)
    }

    @Test("a second press one cell away is not a double-click; in pixels the slop is 10 px")
    func distance() throws {
        var nextColumn = try clickedOnce()
        nextColumn.pointerDown(KnobPoint(x: spot.x + 1, y: spot.y), center: center, at: 1.1)
        #expect(nextColumn.value == 0.8)

        let p = KnobPoint(x: 400, y: 300)
        let slop = KnobBehavior().doubleClickDistance * KnobBehavior().travelPixels
        #expect(slop == 10)
        var near = try clickedOnce(unit: .pixels, at: p)
        near.pointerDown(KnobPoint(x: 406, y: 308), center: center, unit: .pixels, at: 1.1)  // 10 px away
        #expect(near.value == 0.5)
        var far = try clickedOnce(unit: .pixels, at: p)
        far.pointerDown(KnobPoint(x: 406, y: 309), center: center, unit: .pixels, at: 1.1)
        #expect(far.value == 0.8)
    }

    @Test("a first click that dragged is not half of a double-click")
    func movedFirstClick() throws {
        var knob = try Fixture.unitKnob(value: 0.8)
        knob.pointerDown(spot, center: center, at: 1)
        knob.pointerMoved(KnobPoint(x: spot.x, y: spot.y - 1), at: 1.02)
        knob.pointerUp(spot, at: 1.05)
        let dragged = knob.value
        knob.pointerDown(spot, center: center, at: 1.1)
        #expect(knob.value == dragged)
        #expect(dragged != 0.5)
    }

    @Test("a triple click is one double-click")
    func tripleClick() throws {
        var knob = try clickedOnce()
        knob.pointerDown(spot, center: center, at: 1.1)
        knob.pointerUp(spot, at: 1.15)
        #expect(knob.value == 0.5)
        knob.press(.pageUp, at: 1.16)
        knob.pointerDown(spot, center: center, at: 1.2)
        #expect(knob.value == 0.5 + 0.01 * 10)
    }

    @Test("dragging after the second press does not turn the knob away from the default")
    func secondPressConsumed() throws {
        var knob = try clickedOnce()
        knob.pointerDown(spot, center: center, at: 1.1)
        #expect(knob.pointerMoved(KnobPoint(x: spot.x, y: spot.y - 3), at: 1.2) == nil)
        knob.pointerUp(KnobPoint(x: spot.x, y: spot.y - 3), at: 1.3)
        #expect(knob.value == 0.5)
    }

    @Test("the reset goes to the knob's own default, which a Default preset may move")
    func movedDefault() throws {
        var knob = try clickedOnce()
        knob.defaultValue = 0.25
        knob.pointerDown(spot, center: center, at: 1.1)
        #expect(knob.value == 0.25)
        knob.defaultValue = .nan
        #expect(knob.defaultValue == 0.25)
        knob.defaultValue = 7
        #expect(knob.defaultValue == 1)
    }

    @Test("clicks in different units never pair up")
    func unitsDoNotMix() throws {
        var knob = try clickedOnce()
        knob.pointerDown(spot, center: center, unit: .pixels, at: 1.1)
        #expect(knob.value == 0.8)
    }
}
