import Testing
@testable import KnobKit

@Suite("Arc: positions, angles and points")
struct KnobArcTests {
    @Test("the standard arc runs from −135° to +135° with the gap pointing down")
    func standardArc() {
        let arc = KnobArc.standard
        #expect(arc.startAngle == -135 * Double.pi / 180)
        #expect(arc.endAngle == 135 * Double.pi / 180)
        #expect(arc.span == 3 * Double.pi / 2)
        #expect(arc.angle(atPosition: 0) == arc.startAngle)
        #expect(arc.angle(atPosition: 1) == arc.endAngle)
        #expect(arc.angle(atPosition: 0.5) == 0)
        // The middle of the gap is straight down: half a turn from the middle of the arc.
        let gapMiddle = arc.endAngle + (2 * Double.pi - arc.span) / 2
        #expect(gapMiddle == Double.pi)
    }

    @Test("angle is linear in the position and clamped to the arc")
    func angleLaw() {
        let arc = KnobArc.standard
        for i in 0...100 {
            let p = Double(i) / 100
            let expected = p == 1 ? arc.endAngle : arc.startAngle + p * arc.span
            #expect(arc.angle(atPosition: p) == expected)
            #expect(arc.position(atAngle: arc.angle(atPosition: p)).isClose(to: p, tolerance: 1e-15))
        }
        #expect(arc.angle(atPosition: -1) == arc.startAngle)
        #expect(arc.angle(atPosition: 7) == arc.endAngle)
        #expect(arc.angle(atPosition: .nan) == arc.startAngle)
        #expect(arc.position(atAngle: Double.pi) == 1)
        #expect(arc.position(atAngle: -Double.pi) == 0)
    }

    @Test("custom arcs are configurable in degrees or radians")
    func customArc() throws {
        let arc = try KnobArc(startDegrees: -150, endDegrees: 150)
        #expect(arc.startAngle == -150 * Double.pi / 180)
        #expect(arc.endAngle == 150 * Double.pi / 180)
        let full = try KnobArc(startAngle: 0, endAngle: 2 * Double.pi)
        #expect(full.span == 2 * Double.pi)
    }

    @Test("an arc that does not increase, exceeds a turn or is not finite is refused in one line",
          arguments: [(10.0, 10.0), (90.0, -90.0), (-180.0, 181.0), (Double.nan, 90.0), (0.0, Double.infinity)] as [(Double, Double)])
    func invalidArcs(start: Double, end: Double) {
        #expect(throws: KnobError.self) { _ = try KnobArc(startDegrees: start, endDegrees: end) }
        let message = KnobError.invalidArc(startDegrees: start, endDegrees: end).description
        #expect(message.hasPrefix("invalid knob arc") && !message.contains("\n"))
    }

    @Test("points sit on the unit circle in screen orientation: 12 o'clock is up (−y), 3 o'clock right")
    func points() {
        let up = KnobArc.point(atAngle: 0)
        #expect(up == KnobPoint(x: 0, y: -1))
        let right = KnobArc.point(atAngle: Double.pi / 2)
        #expect(right.x == 1 && right.y.isClose(to: 0, tolerance: 1e-15))
        let down = KnobArc.point(atAngle: Double.pi, radius: 2)
        #expect(down.x.isClose(to: 0, tolerance: 1e-15) && down.y == 2)
        // The arc starts at half past seven and ends at half past four: below the centre.
        let h = (0.5).squareRoot()
        let start = KnobArc.point(atAngle: KnobArc.standard.startAngle)
        #expect(start.x.isClose(to: -h) && start.y.isClose(to: h))
        let end = KnobArc.point(atAngle: KnobArc.standard.endAngle)
        #expect(end.x.isClose(to: h) && end.y.isClose(to: h))
    }
}
