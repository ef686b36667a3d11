import KnobKit
import Parameters
import Testing

/// A toggle's knob is a switch: flipped between its two values at once, reported like a key.
@Suite("Switches")
struct SwitchTests {
    let bypass = ParameterSpec(id: "bypass", name: "Bypass", unit: .none, range: 0...1, taper: .linear,
                               defaultValue: 0, smoothing: .none, kind: .toggle)

    @Test("flip goes to the other value and reports it; the label shows the value; twice is back")
    func flips() {
        var knob = Knob(bypass)
        #expect(knob.isSwitch)
        #expect(knob.flip(at: 1) == 1)
        #expect(knob.valueText() == "on")
        #expect(knob.showsValue(at: 1.1))
        #expect(!knob.isAnimating(at: 1.01))  // a switch jumps, it does not glide
        #expect(knob.flip(at: 2) == 0)
        #expect(knob.valueText() == "off")
    }

    @Test("only switches flip; a disabled one does not")
    func onlySwitches() {
        var level = Knob(ParameterSpec(id: "level", name: "Level", unit: .decibels, range: -24...24, taper: .linear,
                                       defaultValue: 0, smoothing: .linear))
        #expect(!level.isSwitch)
        #expect(level.flip(at: 0) == nil)
        #expect(level.value == 0)
        var pair = Knob(ParameterSpec(id: "pair", name: "Pair", unit: .none, range: 0...1, taper: .linear,
                                      defaultValue: 0, smoothing: .none, kind: .integer))
        #expect(!pair.isSwitch)  // two whole numbers, not on and off
        #expect(pair.flip(at: 0) == nil)
        var off = Knob(bypass)
        off.isEnabled = false
        #expect(off.flip(at: 0) == nil)
    }
}
