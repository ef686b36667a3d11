import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Drawing geometry in the unit coordinate system")
struct GeometryTests {
    func distance(_ a: KnobPoint, _ b: KnobPoint) -> Double { RealtimeMath.hypot(a.x - b.x, a.y - b.y) }

    @Test("the track is the whole arc at radius 1")
    func track() throws {
        let g = try Fixture.unitKnob(value: 0.3).geometry(at: 0)
        #expect(g.track == KnobArcSegment(startAngle: KnobArc.standard.startAngle, endAngle: KnobArc.standard.endAngle, radius: 1))
        #expect(g.track.point(atFraction: 0.5) == KnobPoint(x: 0, y: -1))
    }

    @Test("the progress arc runs from the start to the value")
    func progressFromStart() throws {
        let arc = KnobArc.standard
        for value in [0.0, 0.25, 0.5, 1] {
            let g = try Fixture.unitKnob(value: value).geometry(at: 0)
            #expect(g.progress.startAngle == arc.startAngle)
            #expect(g.progress.endAngle == arc.angle(atPosition: value))
            #expect(g.progress.isEmpty == (value == 0))
            #expect(g.valueAngle == arc.angle(atPosition: value))
        }
    }

    @Test("a bipolar knob draws its progress from the centre of the arc, either side")
    func progressFromCenter() throws {
        var appearance = KnobAppearance()
        appearance.progressOrigin = .center
        let below = try Fixture.unitKnob(value: 0.25, appearance: appearance).geometry(at: 0)
        #expect(below.progress.startAngle == KnobArc.standard.angle(atPosition: 0.25))
        #expect(below.progress.endAngle == 0)
        let above = try Fixture.unitKnob(value: 0.75, appearance: appearance).geometry(at: 0)
        #expect(above.progress.startAngle == 0)
        #expect(above.progress.endAngle == KnobArc.standard.angle(atPosition: 0.75))
        #expect(try Fixture.unitKnob(value: 0.5, appearance: appearance).geometry(at: 0).progress.isEmpty)
    }

    @Test("gain drawn bipolar around its table default (0 dB) needs no hard-coded number")
    func progressFromDefault() {
        var knob = Knob(.gain, value: -6)
        knob.appearance.progressOrigin = .defaultValue
        let spec = LowpassGain.table[.gain]
        let g = knob.geometry(at: 0)
        #expect(g.progress.startAngle == knob.arc.angle(atPosition: spec.normalized(-6)))
        #expect(g.progress.endAngle == knob.arc.angle(atPosition: spec.normalized(spec.defaultValue)))
        knob.appearance.progressOrigin = .value(-6)
        #expect(knob.geometry(at: 0).progress.isEmpty)
    }

    @Test("the progress arc always lies on the track", arguments: [KnobProgressOrigin.start, .center, .defaultValue, .value(3)])
    func progressInsideTrack(origin: KnobProgressOrigin) {
        var knob = Knob(.gain)
        knob.appearance.progressOrigin = origin
        for i in 0...50 {
            knob.setValue(knob.scale.value(atNormalized: Double(i) / 50), at: 0)
            let g = knob.geometry(at: 0)
            #expect(g.track.contains(angle: g.progress.startAngle) && g.track.contains(angle: g.progress.endAngle))
            #expect(g.progress.startAngle <= g.progress.endAngle)
            #expect(g.progress.contains(angle: g.valueAngle))
        }
    }

    @Test("the indicator runs from the arc toward the centre for its length fraction")
    func indicator() throws {
        for length in [0.0, 0.3, 0.5, 1] {
            var appearance = KnobAppearance()
            appearance.indicatorLength = length
            let g = try Fixture.unitKnob(value: 0.8, appearance: appearance).geometry(at: 0)
            let angle = KnobArc.standard.angle(atPosition: 0.8)
            #expect(g.indicator.from == KnobArc.point(atAngle: angle))
            #expect(g.indicator.to == KnobArc.point(atAngle: angle, radius: 1 - length))
            #expect(distance(g.indicator.from, g.indicator.to).isClose(to: length, tolerance: 1e-15))
            #expect(distance(g.indicator.from, .zero).isClose(to: 1, tolerance: 1e-15))
        }
        #expect(KnobAppearance().indicatorLength == 0.5)
    }

    @Test("ticks are spread evenly from start to end, each of the tick length")
    func ticks() throws {
        var appearance = KnobAppearance()
        appearance.tickCount = 5
        appearance.tickLength = 0.25
        let g = try Fixture.unitKnob(appearance: appearance).geometry(at: 0)
        #expect(g.ticks.map(\.position) == [0, 0.25, 0.5, 0.75, 1])
        #expect(g.ticks.first?.angle == KnobArc.standard.startAngle)
        #expect(g.ticks.last?.angle == KnobArc.standard.endAngle)
        #expect(g.ticks[2].line == KnobLine(from: KnobPoint(x: 0, y: -1), to: KnobPoint(x: 0, y: -0.75)))
        for tick in g.ticks {
            #expect(distance(tick.line.from, tick.line.to).isClose(to: 0.25, tolerance: 1e-15))
            #expect(tick.angle == KnobArc.standard.angle(atPosition: tick.position))
        }
        appearance.tickCount = 1
        #expect(try Fixture.unitKnob(appearance: appearance).geometry(at: 0).ticks.map(\.position) == [0.5])
        appearance.tickCount = -2
        #expect(try Fixture.unitKnob(appearance: appearance).geometry(at: 0).ticks.isEmpty)
    }

    @Test("during a glide the geometry follows the shown needle, not the target")
    func followsAnimation() throws {
        var knob = try Fixture.unitKnob(value: 0)
        knob.press(.end, at: 0)
        let half = knob.appearance.animationDuration / 2
        #expect(knob.geometry(at: half).valueAngle == knob.shownAngle(at: half))
        #expect(knob.geometry(at: half).valueAngle == 0)
        #expect(knob.geometry(at: 1).valueAngle == knob.arc.endAngle)
    }

    @Test("bad lengths fall back or clamp; the geometry stays finite")
    func badLengths() throws {
        var appearance = KnobAppearance()
        appearance.indicatorLength = .nan
        appearance.tickLength = 7
        appearance.tickCount = 3
        let g = try Fixture.unitKnob(appearance: appearance).geometry(at: 0)
        #expect(distance(g.indicator.from, g.indicator.to).isClose(to: KnobAppearance().indicatorLength, tolerance: 1e-15))
        #expect(g.ticks.allSatisfy { distance($0.line.to, .zero) < 1e-15 })
    }
}
