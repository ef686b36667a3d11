import TestSupport
import AudioEngine
import Testing
@testable import KnobKit

/// Random event sequences, replayed identically on every run from fixed seeds.
@Suite("Properties under random event sequences")
struct RandomEventPropertyTests {
    /// A number that is sometimes ordinary and sometimes hostile.
    static func wild(_ rng: inout SplitMix64, ordinary: ClosedRange<Double>) -> Double {
        switch rng.next() % 12 {
        case 0: .nan
        case 1: .infinity
        case 2: -.infinity
        case 3: rng.pick([1e308, -1e308, Double.leastNonzeroMagnitude, -0.0, Double.greatestFiniteMagnitude])
        default: rng.double(in: ordinary)
        }
    }

    static func point(_ rng: inout SplitMix64) -> KnobPoint {
        KnobPoint(x: wild(&rng, ordinary: 0...120), y: wild(&rng, ordinary: 0...60))
    }

    static func input(_ rng: inout SplitMix64) -> KnobInput {
        let fine = rng.chance(0.3)
        switch rng.next() % 10 {
        case 0:
            return .pointerDown(point(&rng), center: KnobPoint(x: rng.double(in: 0...120), y: rng.double(in: 0...60)),
                                unit: rng.pick([.cells, .pixels]), fine: fine)
        case 1, 2, 3: return .pointerMoved(point(&rng), fine: fine)
        case 4: return .pointerUp(point(&rng), fine: fine)
        case 5: return .rotation(radians: wild(&rng, ordinary: -3...3), phase: rng.pick([.began, .changed, .ended]), fine: fine)
        case 6: return .wheel(notches: rng.pick([1, -1, 3, -7, 100, Int.max, Int.min]), fine: fine)
        case 7: return .key(rng.pick(KnobKey.allCases), fine: fine)
        case 8: return .cancel
        default: return .pointerMoved(point(&rng), fine: fine)
        }
    }

    /// Settings as a careless caller might set them.
    static func behavior(_ rng: inout SplitMix64) -> KnobBehavior {
        var b = KnobBehavior()
        b.dragStyle = rng.pick([.vertical, .circular])
        b.reporting = rng.pick([.continuous, .onRelease])
        if rng.chance(0.5) { b.snapInterval = wild(&rng, ordinary: 0...5) }
        if rng.chance(0.3) { b.travelCells = wild(&rng, ordinary: -4...20) }
        if rng.chance(0.3) { b.travelPixels = wild(&rng, ordinary: -10...400) }
        if rng.chance(0.3) { b.sensitivity = wild(&rng, ordinary: -1...4) }
        if rng.chance(0.3) { b.fineFactor = wild(&rng, ordinary: -1...1) }
        if rng.chance(0.3) { b.step = wild(&rng, ordinary: -0.1...0.5) }
        if rng.chance(0.3) { b.cellAspect = wild(&rng, ordinary: -1...3) }
        if rng.chance(0.3) { b.deadZone = wild(&rng, ordinary: -1...1) }
        if rng.chance(0.3) { b.maximumAngleStep = wild(&rng, ordinary: -1...7) }
        if rng.chance(0.3) { b.fullSpeedBand = wild(&rng, ordinary: -1...2) }
        if rng.chance(0.3) { b.fineReach = wild(&rng, ordinary: -1...3) }
        if rng.chance(0.3) { b.minimumSpeed = wild(&rng, ordinary: -1...2) }
        if rng.chance(0.3) { b.pageMultiplier = wild(&rng, ordinary: -10...100) }
        return b
    }

    static func check(_ knob: Knob, reported: Double?, at time: Double, _ context: @autoclosure () -> String) {
        let range = knob.scale.range
        #expect(range.contains(knob.value), "value \(knob.value) out of range — \(context())")
        #expect(range.contains(knob.reportedValue), "reported \(knob.reportedValue) — \(context())")
        if let reported {
            // What was handed over is what the engine now has…
            #expect(reported == knob.reportedValue, "report \(reported) — \(context())")
            // …and the current value, unless a gesture holding its changes for release is open.
            if knob.behavior.reporting == .continuous || !knob.isTurning {
                #expect(reported == knob.value, "report \(reported) vs \(knob.value) — \(context())")
            }
        }
        let shown = knob.shownPosition(at: time)
        #expect(shown >= 0 && shown <= 1, "shown \(shown) — \(context())")
        #expect(range.contains(knob.shownValue(at: time)), "shown value — \(context())")
        let g = knob.geometry(at: time)
        #expect(g.indicator.from.isFinite && g.indicator.to.isFinite, "geometry — \(context())")
        #expect(g.track.contains(angle: g.valueAngle), "needle in the gap — \(context())")
        #expect(!knob.label(at: time).text.isEmpty, "label — \(context())")
    }

    @Test("the value never leaves the range and is never NaN, whatever arrives",
          arguments: ScaleCase.allCases)
    func valueStaysInRange(scaleCase: ScaleCase) throws {
        let scale = try scaleCase.make()
        for seed in UInt64(1)...24 {
            let caseIndex = UInt64(ScaleCase.allCases.firstIndex(of: scaleCase) ?? 0)
            var rng = SplitMix64(seed: seed &* 7919 &+ caseIndex)
            var knob = Knob(scale: scale, value: Self.wild(&rng, ordinary: scale.range.lowerBound...scale.range.upperBound),
                            behavior: Self.behavior(&rng))
            var time = rng.double(in: 0...100)
            for step in 0..<400 {
                // Time mostly moves forward, sometimes stalls, jumps back or is garbage.
                time = rng.chance(0.05) ? Self.wild(&rng, ordinary: -10...1000) : (time.isFinite ? time : 0) + rng.double(in: 0...0.05)
                var reported: Double?
                switch rng.next() % 20 {
                case 0:
                    reported = knob.setValue(Self.wild(&rng, ordinary: -1e5...1e5), animated: rng.chance(0.5), at: time)
                case 1:
                    reported = try? knob.enter(rng.pick(["1.2k", "-6 dB", "0.5", "50", "x", "nan", "-inf", "12 %"]), at: time)
                case 2:
                    reported = knob.turn(by: Self.wild(&rng, ordinary: -2...2), fine: rng.chance(0.5), at: time)
                case 3:
                    knob.isEnabled = rng.chance(0.8)
                case 4:
                    knob.defaultValue = Self.wild(&rng, ordinary: -1e5...1e5)
                    #expect(scale.range.contains(knob.defaultValue))
                case 5:
                    knob.behavior = Self.behavior(&rng)
                default:
                    reported = knob.handle(Self.input(&rng), at: time)
                }
                Self.check(knob, reported: reported, at: time, "\(scaleCase) seed \(seed) step \(step)")
            }
        }
    }

    @Test("a vertical drag that only ever moves up never lowers the value, sideways or fine")
    func upwardDragIsMonotonic() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<50 {
            var knob = Knob(.cutoff, value: rng.double(in: 20...20_000))
            let c = KnobPoint(x: 40, y: 12)
            knob.pointerDown(c, center: c, at: 0)
            var y = c.y
            var previous = knob.value
            for i in 1...60 {
                y -= rng.double(in: 0...0.7)
                knob.pointerMoved(KnobPoint(x: rng.double(in: 0...120), y: y), fine: rng.chance(0.5), at: Double(i))
                #expect(knob.value >= previous)
                previous = knob.value
            }
        }
    }

    @Test("toggling the fine modifier on an event without movement never changes the value")
    func modifierToggleNeverJumps() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var knob = try Fixture.unitKnob(value: rng.unit(), behavior: rng.chance(0.5) ? KnobBehavior() : Fixture.circular)
            let c = Fixture.center
            var p = KnobPoint(x: rng.double(in: 0...80), y: rng.double(in: 0...24))
            knob.pointerDown(p, center: c, at: 0)
            var fine = false
            for i in 1...30 {
                if rng.chance(0.3) {
                    fine.toggle()
                    let before = knob.value
                    #expect(knob.pointerMoved(p, fine: fine, at: Double(i)) == nil)
                    #expect(knob.value == before)
                } else {
                    p = KnobPoint(x: p.x + rng.double(in: -2...2), y: p.y + rng.double(in: -1...1))
                    knob.pointerMoved(p, fine: fine, at: Double(i))
                }
            }
        }
    }

    @Test("every circular-drag event moves the value by at most 45° worth")
    func circularStepsBounded() throws {
        var rng = SplitMix64(seed: 2024)
        let limit = KnobBehavior().maximumAngleStep / KnobArc.standard.span
        for _ in 0..<100 {
            var knob = try Fixture.unitKnob(value: rng.unit(), behavior: Fixture.circular)
            knob.pointerDown(Fixture.cellPoint(degrees: rng.double(in: -180...180)), center: Fixture.center, at: 0)
            for i in 1...40 {
                let before = knob.value
                let p = Fixture.cellPoint(degrees: rng.double(in: -180...180), radius: rng.double(in: 0...6))
                knob.pointerMoved(p, at: Double(i))
                #expect(abs(knob.value - before) <= limit + 1e-15)
            }
        }
    }

    @Test("the shown needle never enters the gap during any glide")
    func glidesStayOnTheArc() throws {
        var rng = SplitMix64(seed: 31)
        var knob = Knob(.resonance)
        var time = 0.0
        for _ in 0..<300 {
            time += rng.double(in: 0...0.2)
            if rng.chance(0.5) {
                knob.setValue(rng.double(in: 0.5...10), animated: true, at: time)
            } else {
                knob.press(rng.pick([.home, .end, .reset]), at: time)
            }
            for k in 0...10 {
                let angle = knob.shownAngle(at: time + Double(k) * 0.03)
                #expect(angle >= knob.arc.startAngle && angle <= knob.arc.endAngle)
            }
        }
    }
}
