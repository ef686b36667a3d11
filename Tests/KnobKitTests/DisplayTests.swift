import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Label: name when idle, value while turning and for a while after")
struct DisplayTests {
    let center = Fixture.center

    @Test("an untouched knob shows its name; focus alone does not change that")
    func idleShowsName() {
        var knob = Knob(.cutoff)
        #expect(knob.label(at: 0) == .name(LowpassGain.table[.cutoff].name))
        knob.isFocused = true
        #expect(knob.label(at: 0) == .name("Cutoff"))
        #expect(!knob.label(at: 0).showsValue)
    }

    @Test("the value shows while turning, however long the drag lasts")
    func turningShowsValue() {
        var knob = Knob(.cutoff)
        knob.pointerDown(center, center: center, at: 0)
        #expect(knob.label(at: 0) == .value(knob.valueText()))
        #expect(knob.label(at: 1000).showsValue)
        #expect(knob.nameReturnTime(after: 1000) == nil)
    }

    @Test("after a release the value persists for exactly the persistence time")
    func persistence() {
        var knob = Knob(.gain)
        let persistence = knob.appearance.valuePersistence
        knob.pointerDown(center, center: center, at: 1)
        knob.pointerMoved(KnobPoint(x: center.x, y: center.y + 1), at: 1.5)
        knob.pointerUp(KnobPoint(x: center.x, y: center.y + 1), at: 2)
        #expect(knob.label(at: 2) == .value(LowpassGain.table[.gain].format(knob.value)))
        #expect(knob.label(at: (2 + persistence).nextDown).showsValue)
        #expect(knob.label(at: 2 + persistence) == .name("Gain"))
        #expect(knob.nameReturnTime(after: 2.5) == 2 + persistence)
        #expect(knob.nameReturnTime(after: 2 + persistence) == nil)
    }

    @Test("wheel, keys, typed values and resets show the value for the persistence time too")
    func discreteInputsShowValue() throws {
        var knob = Knob(.gain)
        knob.appearance.valuePersistence = 0.5
        knob.scroll(notches: 1, at: 10)
        #expect(knob.label(at: 10.25).showsValue && !knob.label(at: 10.5).showsValue)
        knob.press(.increment, at: 20)
        #expect(knob.label(at: 20.25).showsValue && !knob.label(at: 20.5).showsValue)
        try knob.enter("-12", at: 30)
        #expect(knob.label(at: 30.25) == .value("\u{2212}12.0 dB"))
        knob.resetToDefault(at: 40)
        #expect(knob.label(at: 40.25) == .value(LowpassGain.table[.gain].format(0)))
        // A key at the end of the range changes nothing but still shows where it is.
        knob.press(.end, at: 50)
        knob.press(.end, at: 60)
        #expect(knob.label(at: 60.25).showsValue)
    }

    @Test("a value set from code (a preset) leaves the name showing")
    func presetKeepsName() {
        var knob = Knob(.cutoff)
        knob.setValue(440, animated: true, at: 0)
        #expect(knob.label(at: 0.1) == .name("Cutoff"))
    }

    @Test("without a name, or with names turned off, the value always shows")
    func alwaysValue() throws {
        var knob = Knob(.resonance)
        knob.appearance.showsNameWhenIdle = false
        #expect(knob.label(at: 0) == .value(LowpassGain.table[.resonance].format(LowpassGain.table[.resonance].defaultValue)))
        let nameless = Knob(scale: try KnobScale(name: "", range: 0...1, defaultValue: 0.5))
        #expect(nameless.label(at: 0) == .value("0.50"))
    }

    @Test("value text comes from the table, with an ASCII form")
    func valueText() {
        let gain = Knob(.gain, value: -6)
        #expect(gain.valueText() == LowpassGain.table[.gain].format(-6))
        #expect(gain.valueText(ascii: true) == "-6.0 dB")
        let silent = Knob(.gain, value: -60)
        #expect(silent.valueText(ascii: true) == LowpassGain.table[.gain].format(-60, ascii: true))
        #expect(Knob(.cutoff, value: 1200).valueText() == "1.20 kHz")
    }

    @Test("a time before the last change still shows the value; a NaN time shows the name")
    func oddTimes() {
        var knob = Knob(.gain)
        knob.press(.increment, at: 5)
        #expect(knob.label(at: 4).showsValue)
        #expect(!knob.label(at: .nan).showsValue)
    }
}
