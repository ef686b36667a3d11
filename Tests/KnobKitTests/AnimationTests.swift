import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Animation along the arc")
struct AnimationTests {
    @Test("smoothstep starts at 0, ends at 1, is symmetric and increasing")
    func easing() {
        #expect(KnobAnimation.ease(0) == 0)
        #expect(KnobAnimation.ease(1) == 1)
        #expect(KnobAnimation.ease(0.5) == 0.5)
        #expect(KnobAnimation.ease(-3) == 0 && KnobAnimation.ease(9) == 1)
        var previous = 0.0
        for i in 1...1000 {
            let u = Double(i) / 1000
            let e = KnobAnimation.ease(u)
            #expect(e > previous)
            #expect((e + KnobAnimation.ease(1 - u)).isClose(to: 1, tolerance: 1e-15))
            previous = e
        }
    }

    @Test("the shown position goes from the old to the new position and lands exactly")
    func landsExactly() {
        var knob = Knob(.cutoff, value: 20_000)
        let duration = knob.appearance.animationDuration
        let from = knob.position
        knob.resetToDefault(at: 10)
        let to = knob.position
        #expect(knob.shownPosition(at: 10) == from)
        #expect(knob.shownPosition(at: 10 + duration) == to)
        #expect(knob.shownPosition(at: 99) == to)
        #expect(knob.shownValue(at: 10 + duration) == LowpassGain.table[.cutoff].defaultValue)
        #expect(knob.shownValue(at: 10 + duration / 2) != knob.value)
        #expect(!knob.isAnimating(at: 10 + duration))
        #expect(knob.isAnimating(at: 10 + duration / 2))
    }

    @Test("from minimum to maximum the needle goes the long way, up through 12 o'clock, never through the gap")
    func neverCrossesGap() throws {
        var knob = try Fixture.unitKnob(value: 0)
        let duration = knob.appearance.animationDuration
        knob.press(.end, at: 0)
        var previous = knob.arc.startAngle
        for i in 0...100 {
            let t = duration * Double(i) / 100
            let angle = knob.shownAngle(at: t)
            #expect(angle >= knob.arc.startAngle && angle <= knob.arc.endAngle)
            #expect(angle >= previous)
            previous = angle
        }
        #expect(knob.shownAngle(at: duration / 2) == 0)  // straight up half way
        #expect(knob.shownAngle(at: duration) == knob.arc.endAngle)
    }

    @Test("the path is monotonic and stays between the two positions, either way")
    func monotonicPath() {
        for (from, to) in [(0.9, 0.1), (0.2, 0.7), (1.0, 0.0)] {
            let animation = KnobAnimation(from: from, to: to, startTime: 3, duration: 0.5)
            var previous = from
            for i in 0...200 {
                let p = animation.position(at: 3 + 0.5 * Double(i) / 200)
                #expect(p >= min(from, to) && p <= max(from, to))
                #expect(to > from ? p >= previous : p <= previous)
                previous = p
            }
            #expect(animation.position(at: 3.5) == to)
            #expect(animation.position(at: 2) == from)
        }
    }

    @Test("a new glide mid-way starts from where the needle is shown, so it never jumps")
    func retargetNoJump() throws {
        var knob = try Fixture.unitKnob(value: 0)
        knob.press(.end, at: 0)
        let shown = knob.shownPosition(at: 0.1)
        knob.press(.home, at: 0.1)
        #expect(knob.shownPosition(at: 0.1) == shown)
        #expect(knob.shownPosition(at: 0.1 + knob.appearance.animationDuration) == 0)
    }

    @Test("a change by drag, wheel or step stops the glide at once")
    func directChangeStopsGlide() throws {
        var knob = try Fixture.unitKnob(value: 0)
        knob.press(.end, at: 0)
        knob.scroll(notches: -1, at: 0.05)
        #expect(!knob.isAnimating(at: 0.06))
        #expect(knob.shownPosition(at: 0.06) == knob.position)
    }

    @Test("typed values and animated preset loads glide; plain preset loads jump")
    func whatGlides() throws {
        var knob = Knob(.gain)
        try knob.enter("-30", at: 0)
        #expect(knob.isAnimating(at: 0.1))
        knob.setValue(6, animated: true, at: 1)
        #expect(knob.isAnimating(at: 1.1))
        knob.setValue(-3, at: 2)
        #expect(!knob.isAnimating(at: 2))
    }

    @Test("a zero duration lands at once")
    func zeroDuration() throws {
        var knob = try Fixture.unitKnob(value: 0, appearance: {
            var a = KnobAppearance()
            a.animationDuration = 0
            return a
        }())
        knob.press(.end, at: 0)
        #expect(knob.shownPosition(at: 0) == 1)
        #expect(!knob.isAnimating(at: 0))
        #expect(KnobAnimation(from: 0, to: 1, startTime: 0, duration: .nan).position(at: 0) == 1)
    }
}
