import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Wheel, keys and typed values")
struct WheelAndKeyboardTests {
    @Test("one wheel notch is one step of 1 % of the range; fine is 0.1 %")
    func wheelSteps() throws {
        var knob = try Fixture.unitKnob()
        #expect(knob.scroll(notches: 1, at: 0) == 0.5 + 0.01)
        var fine = try Fixture.unitKnob()
        #expect(fine.scroll(notches: 1, fine: true, at: 0) == 0.5 + 0.01 * 0.1)
        var three = try Fixture.unitKnob()
        #expect(three.scroll(notches: -3, at: 0) == 0.5 - 3 * 0.01)
        #expect(three.scroll(notches: 0, at: 1) == nil)
    }

    @Test("a notch on a logarithmic parameter moves its position by one step")
    func wheelOnLogTaper() {
        var knob = Knob(.cutoff)
        let spec = LowpassGain.table[.cutoff]
        let start = knob.position
        knob.scroll(notches: 1, at: 0)
        #expect(knob.value == spec.value(atNormalized: start + 0.01))
        #expect(knob.value > spec.defaultValue)
    }

    @Test("arrow keys step, pages move ten steps, fine divides by ten",
          arguments: [(KnobKey.increment, false, 0.01), (.decrement, false, -0.01), (.pageUp, false, 0.1),
                      (.pageDown, false, -0.1), (.increment, true, 0.001), (.pageDown, true, -0.01)])
    func keySteps(key: KnobKey, fine: Bool, expectedDelta: Double) throws {
        var knob = try Fixture.unitKnob()
        let step = knob.behavior.step * (fine ? knob.behavior.fineFactor : 1)
        let multiplier = key == .pageUp || key == .pageDown ? knob.behavior.pageMultiplier : 1
        let sign = key == .increment || key == .pageUp ? 1.0 : -1.0
        #expect((sign * step * multiplier).isClose(to: expectedDelta, tolerance: 1e-15))
        #expect(knob.press(key, fine: fine, at: 0) == 0.5 + sign * step * multiplier)
    }

    @Test("Home and End go to the range ends, reset to the default; each glides")
    func homeEndReset() {
        var knob = Knob(.gain)
        let spec = LowpassGain.table[.gain]
        #expect(knob.press(.home, at: 0) == spec.range.lowerBound)
        #expect(knob.isAnimating(at: 0.1))
        #expect(knob.press(.end, at: 1) == spec.range.upperBound)
        #expect(knob.press(.reset, at: 2) == spec.defaultValue)
        #expect(knob.press(.reset, at: 3) == nil)  // already there
    }

    @Test("steps stop at the ends without reporting")
    func stepsStopAtEnds() throws {
        var knob = try Fixture.unitKnob(value: 1)
        #expect(knob.press(.increment, at: 0) == nil)
        #expect(knob.scroll(notches: 5, at: 0) == nil)
        #expect(knob.value == 1)
        #expect(knob.press(.pageDown, at: 0) == 1 - 0.01 * 10)
    }

    @Test("typed values go through the table's parser, units and all", arguments: [
        (ParameterIndex.cutoff, "1.2k", 1200.0), (.cutoff, "800 Hz", 800), (.gain, "-6 dB", -6),
        (.gain, "\u{2212}3dB", -3), (.gain, "off", -60), (.resonance, "4", 4),
    ])
    func typedValues(id: ParameterIndex, text: String, expected: Double) throws {
        var knob = Knob(id)
        let reported = try knob.enter(text, at: 0)
        #expect(knob.value == expected)
        #expect(knob.value == (try LowpassGain.table[id].parse(text)))
        #expect(reported == (expected == LowpassGain.table[id].defaultValue ? nil : expected))
    }

    @Test("a refused typed value throws the table's one-line message and leaves the knob alone")
    func typedRefusal() {
        var knob = Knob(.cutoff, value: 440)
        for text in ["50k", "loud", "", "nan"] {
            #expect {
                _ = try knob.enter(text, at: 0)
            } throws: { error in
                let message = String(describing: error)
                return message.contains("cutoff") && message.contains("'\(text)'") && !message.contains("\n")
            }
        }
        #expect(knob.value == 440)
        #expect(knob.reportedValue == 440)
    }

    @Test("a typed value is taken exactly, even with snapping")
    func typedNotSnapped() throws {
        var knob = Knob(.gain)
        knob.behavior.snapInterval = 1
        try knob.enter("-6.5 dB", at: 0)
        #expect(knob.value == -6.5)
    }
}
