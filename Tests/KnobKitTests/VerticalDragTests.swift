import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Vertical drag")
struct VerticalDragTests {
    let center = Fixture.center

    func point(dx: Double = 0, up: Double) -> KnobPoint {
        KnobPoint(x: center.x + dx, y: center.y - up)
    }

    @Test("the press never turns the knob; it starts turning and focuses it")
    func pressDoesNotTurn() throws {
        var knob = try Fixture.unitKnob(value: 0.3)
        #expect(knob.pointerDown(point(up: 2), center: center, at: 0) == nil)
        #expect(knob.value == 0.3)
        #expect(knob.state == .turning)
        #expect(knob.isFocused)
    }

    @Test("dragging up dy rows moves dy / (travel × sensitivity) of the range",
          arguments: [(1.0, 1.0), (2, 1), (3, 1), (1, 2), (3, 2), (1, 0.5), (-2, 1), (-3, 2)] as [(Double, Double)])
    func travelLaw(rows: Double, sensitivity: Double) throws {
        var behavior = KnobBehavior()
        behavior.sensitivity = sensitivity
        var knob = try Fixture.unitKnob(behavior: behavior)
        knob.pointerDown(center, center: center, at: 0)
        let reported = knob.pointerMoved(point(up: rows), at: 0.1)
        let expected = 0.5 + rows / (behavior.travelCells * sensitivity)
        #expect(knob.value == expected)
        #expect(reported == expected)
    }

    @Test("pixel reports use the pixel travel")
    func pixelTravel() throws {
        var knob = try Fixture.unitKnob()
        let c = KnobPoint(x: 400, y: 300)
        knob.pointerDown(c, center: c, unit: .pixels, at: 0)
        knob.pointerMoved(KnobPoint(x: 400, y: 250), at: 0.1)
        #expect(knob.value == 0.5 + 50 / knob.behavior.travelPixels)
    }

    @Test("up increases and down decreases, monotonically in the distance")
    func monotonic() throws {
        var previous = -Double.infinity
        for rows in stride(from: -4.0, through: 4.0, by: 0.25) {
            var knob = try Fixture.unitKnob()
            knob.pointerDown(center, center: center, at: 0)
            knob.pointerMoved(point(up: rows), at: 0.1)
            #expect(knob.value >= previous)
            #expect(rows > 0 ? knob.value > 0.5 : (rows < 0 ? knob.value < 0.5 : knob.value == 0.5))
            previous = knob.value
        }
    }

    @Test("many small movements add up to the one large movement they split")
    func smallMovesAddUp() throws {
        var big = try Fixture.unitKnob(value: 0.2)
        big.pointerDown(center, center: center, at: 0)
        big.pointerMoved(point(up: 4), at: 1)
        var small = try Fixture.unitKnob(value: 0.2)
        small.pointerDown(center, center: center, at: 0)
        for i in 1...16 { small.pointerMoved(point(up: Double(i) * 0.25), at: Double(i) / 16) }
        #expect(small.value == big.value)
        #expect(big.value == 0.2 + 4 / big.behavior.travelCells)
    }

    @Test("sideways speed is 1 inside the band, then falls linearly over the reach to the minimum")
    func speedLaw() {
        let b = KnobBehavior()
        let travel = 8.0
        let band = b.fullSpeedBand * travel
        let reach = b.fineReach * travel
        #expect(VerticalDrag.speed(sideways: 0, travel: travel, behavior: b) == 1)
        #expect(VerticalDrag.speed(sideways: band, travel: travel, behavior: b) == 1)
        #expect(VerticalDrag.speed(sideways: band + reach / 2, travel: travel, behavior: b) == 0.5)
        #expect(VerticalDrag.speed(sideways: band + 1, travel: travel, behavior: b) == 1 - 1 / reach)
        #expect(VerticalDrag.speed(sideways: band + reach, travel: travel, behavior: b) == b.minimumSpeed)
        #expect(VerticalDrag.speed(sideways: 1e9, travel: travel, behavior: b) == b.minimumSpeed)
        var previous = 1.0
        for i in 0...400 {
            let s = VerticalDrag.speed(sideways: Double(i) * 0.1, travel: travel, behavior: b)
            #expect(s <= previous && s >= b.minimumSpeed && s <= 1)
            // Continuous: no step larger than the slope allows.
            #expect(previous - s <= 0.1 / reach + 1e-15)
            previous = s
        }
    }

    @Test("the full-speed band scales with the travel, in cells and in pixels")
    func bandScalesWithTravel() throws {
        // Cells: the band's half-width is 0.5 × 8 rows = 4 rows = 8 columns at aspect 2.
        var knob = try Fixture.unitKnob()
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(point(dx: 8, up: 1), at: 0.1)
        #expect(knob.value == 0.5 + 1.0 / 8)
        knob.pointerMoved(point(dx: 10, up: 2), at: 0.2)  // 5 rows sideways: 1 row beyond the band
        let slowed: Double = 1 - 1.0 / 16
        #expect(knob.value == 0.5 + (1 + 1 * slowed) / 8)

        // Twice the travel: 10 columns is inside the band again.
        var behavior = KnobBehavior()
        behavior.travelCells = 16
        var long = try Fixture.unitKnob(behavior: behavior)
        long.pointerDown(center, center: center, at: 0)
        long.pointerMoved(point(dx: 10, up: 1), at: 0.1)
        #expect(long.value == 0.5 + 1.0 / 16)

        // Pixels: band 100 px, reach 400 px.
        var pixels = try Fixture.unitKnob()
        let c = KnobPoint(x: 400, y: 300)
        pixels.pointerDown(c, center: c, unit: .pixels, at: 0)
        pixels.pointerMoved(KnobPoint(x: 500, y: 290), at: 0.1)
        #expect(pixels.value == 0.5 + 10.0 / 200)
        pixels.pointerMoved(KnobPoint(x: 250, y: 280), at: 0.2)  // 150 px to the left: 50 beyond
        let pixelSpeed: Double = 1 - 50.0 / 400
        #expect(pixels.value == 0.5 + (10 + 10 * pixelSpeed) / 200)
    }

    @Test("the fine modifier gives a tenth of the change")
    func fineModifier() throws {
        var knob = try Fixture.unitKnob()
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(point(up: 2), fine: true, at: 0.1)
        #expect(knob.value == 0.5 + 2 * knob.behavior.fineFactor / knob.behavior.travelCells)
        #expect(knob.behavior.fineFactor == 0.1)
    }

    @Test("pressing or releasing the fine modifier mid-drag never makes the value jump")
    func fineToggleNoJump() throws {
        var knob = try Fixture.unitKnob(value: 0.25)
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(point(up: 3), at: 0.1)
        let before = knob.value
        // Modifier pressed without movement: nothing changes.
        #expect(knob.pointerMoved(point(up: 3), fine: true, at: 0.2) == nil)
        #expect(knob.value == before)
        knob.pointerMoved(point(up: 4), fine: true, at: 0.3)
        let fineStep = knob.value - before
        #expect(fineStep == 0.25 + (3 + 1 * 0.1) / 8 - before)
        // Modifier released without movement: nothing changes either.
        let held = knob.value
        #expect(knob.pointerMoved(point(up: 4), fine: false, at: 0.4) == nil)
        #expect(knob.value == held)
        knob.pointerMoved(point(up: 5), at: 0.5)
        #expect(knob.value == 0.25 + (3 + 1 * 0.1 + 1) / 8)
    }

    @Test("pushing past an end and coming back responds at once, with no dead travel")
    func noDeadTravel() throws {
        var knob = try Fixture.unitKnob()
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(point(up: 20), at: 0.1)
        #expect(knob.value == 1)
        knob.pointerMoved(point(up: 19), at: 0.2)
        #expect(knob.value == 1 - 1.0 / 8)
        knob.pointerMoved(point(up: -30), at: 0.3)
        #expect(knob.value == 0)
        knob.pointerMoved(point(up: -29), at: 0.4)
        #expect(knob.value == 1.0 / 8)
    }

    @Test("a drag turns a logarithmic parameter linearly in its position")
    func logarithmicTaper() {
        var knob = Knob(.cutoff)
        let spec = LowpassGain.table[.cutoff]
        let start = spec.normalized(spec.defaultValue)
        knob.pointerDown(center, center: center, at: 0)
        knob.pointerMoved(point(up: 1), at: 0.1)
        #expect(knob.value == spec.value(atNormalized: start + 1.0 / 8))
        #expect(knob.position.isClose(to: start + 1.0 / 8))
    }

    @Test("moves without a press and releases without a press are ignored")
    func strayEvents() throws {
        var knob = try Fixture.unitKnob()
        #expect(knob.pointerMoved(point(up: 3), at: 0) == nil)
        #expect(knob.pointerUp(point(up: 3), at: 0) == nil)
        #expect(knob.value == 0.5)
        #expect(knob.state == .idle)
    }

    @Test("the release position counts as the last movement")
    func releaseMoves() throws {
        var knob = try Fixture.unitKnob()
        knob.pointerDown(center, center: center, at: 0)
        #expect(knob.pointerUp(point(up: 2), at: 0.1) == 0.75)
        #expect(knob.state == .focused)
    }
}

@Suite("Vertical drag, geometric falloff")
struct GeometricFalloffTests {
    @Test("the speed falls by a constant ratio per unit sideways, from 1 at the band to the minimum")
    func law() {
        var b = KnobBehavior()
        b.speedFalloff = .geometric
        b.minimumSpeed = 0.001
        let travel = 8.0
        let band = b.fullSpeedBand * travel
        let reach = b.fineReach * travel
        #expect(VerticalDrag.speed(sideways: band, travel: travel, behavior: b) == 1)
        #expect(abs(VerticalDrag.speed(sideways: band + reach / 2, travel: travel, behavior: b) - 0.001.squareRoot()) < 1e-9)
        #expect(VerticalDrag.speed(sideways: band + reach, travel: travel, behavior: b) == 0.001)
        #expect(VerticalDrag.speed(sideways: 1e9, travel: travel, behavior: b) == 0.001)
        let r1 = VerticalDrag.speed(sideways: band + 1, travel: travel, behavior: b)
        let r2 = VerticalDrag.speed(sideways: band + 2, travel: travel, behavior: b)
        #expect(abs(r2 / r1 - r1) < 1e-9)
    }
}
