import AudioEngine
import KnobKit
import Presets
import Testing
import Parameters
@testable import TerminalPanel

/// The panel's keys, each checked against what KnobKit itself gives for the same input: the
/// panel must route, never compute.
@Suite("Panel keys")
struct PanelKeyboardTests {
    @Test("focus starts on the first parameter of the table, Cutoff")
    func initialFocus() {
        let (panel, _) = makePanel()
        #expect(panel.ids.first == .cutoff)
        #expect(panel.focus == 0)
        #expect(panel.knobs[0].scale.name == "Cutoff")
        #expect(panel.knobs.map(\.isFocused) == [true, false, false])
        #expect(panel.ids == LowpassGain.table.ids)
    }

    @Test("Tab and → move focus forward, Shift-Tab and ← back, wrapping around")
    func focusMoves() {
        let (panel, _) = makePanel()
        panel.press(.tab, at: 0)
        #expect(panel.focus == 1)
        panel.press(.right, at: 0)
        #expect(panel.focus == 2)
        panel.press(.tab, at: 0)
        #expect(panel.focus == 0)
        panel.press(.backTab, at: 0)
        #expect(panel.focus == 2)
        panel.press(.left, at: 0)
        #expect(panel.focus == 1)
        #expect(panel.knobs.map(\.isFocused) == [false, true, false])
    }

    @Test("↑, k and + step up; ↓, j and − step down, exactly as KnobKit's keys; the host gets each value")
    func steps() {
        for (key, mods, knobKey) in [(Key.up, KeyModifiers(), KnobKey.increment), (.character("k"), [], .increment),
                                     (.character("+"), [], .increment), (.down, [], .decrement),
                                     (.character("j"), [], .decrement), (.character("-"), [], .decrement),
                                     (.pageUp, [], .pageUp), (.pageDown, [], .pageDown)] {
            let (panel, host) = makePanel()
            var reference = referenceKnob(.cutoff)
            let expected = reference.press(knobKey, at: 1)
            panel.press(key, mods, at: 1)
            #expect(expected != nil)
            #expect(panel.value(.cutoff) == reference.value, "\(key)")
            #expect(host.sent.map(\.1) == [reference.value])
            #expect(host.sent.map(\.0) == [.cutoff])
        }
    }

    @Test("Ctrl or Alt is the fine modifier: a tenth of a step")
    func fine() {
        for (key, mods) in [(Key.up, KeyModifiers.ctrl), (.up, .alt), (.character("k"), .alt), (.character("k"), .ctrl)] {
            let (panel, _) = makePanel()
            var reference = referenceKnob(.cutoff)
            reference.press(.increment, fine: true, at: 1)
            panel.press(key, mods, at: 1)
            #expect(panel.value(.cutoff) == reference.value, "\(key) \(mods)")
            // A fine step moves a tenth of the normalised distance of a full step.
            #expect(abs(panel.knob(.cutoff).position - referenceKnob(.cutoff).position - 0.001) < 1e-12)
        }
        let (panel, _) = makePanel()
        panel.press(.character("j"), .ctrl, at: 1)
        #expect(abs(panel.knob(.cutoff).position - referenceKnob(.cutoff).position + 0.001) < 1e-12)
    }

    @Test("Home and End go to the table's range ends")
    func ends() {
        let (panel, host) = makePanel()
        panel.press(.tab, at: 0)
        panel.press(.home, at: 1)
        #expect(panel.value(.resonance) == LowpassGain.table[.resonance].range.lowerBound)
        panel.press(.end, at: 2)
        #expect(panel.value(.resonance) == LowpassGain.table[.resonance].range.upperBound)
        #expect(host.sent.map(\.1) == [LowpassGain.table[.resonance].range.lowerBound, LowpassGain.table[.resonance].range.upperBound])
    }

    @Test("= or Enter types a value with units, read by the table's parser")
    func typedValues() {
        let (panel, host) = makePanel()
        panel.type("=1.2k", at: 1)
        #expect(panel.value(.cutoff) == 1_000)  // not yet: the prompt is open
        panel.press(.enter, at: 1)
        #expect(panel.value(.cutoff) == 1_200)
        panel.press(.backTab, at: 2)  // to Gain
        panel.press(.enter, at: 2)
        panel.type("-6 dB", at: 2)
        panel.press(.enter, at: 2)
        #expect(panel.value(.gain) == -6)
        #expect(host.sent.map(\.1) == [1_200, -6])
        #expect(panel.mode == .normal)
    }

    @Test("a value that cannot be read leaves the knob and shows the parser's one-line reason")
    func badValue() {
        let (panel, host) = makePanel()
        panel.type("=abc", at: 1)
        panel.press(.enter, at: 1)
        #expect(panel.value(.cutoff) == 1_000)
        #expect(host.sent.isEmpty)
        let expected = try? LowpassGain.table[.cutoff].parse("abc")
        #expect(expected == nil)
        #expect(panel.message == Panel.Message(text: ParameterError.invalidValue(
            id: "cutoff", text: "abc", expected: ParameterUnit.hertz.expectation).description, isError: true))
        panel.type("=99k", at: 2)
        panel.press(.enter, at: 2)
        #expect(panel.message?.isError == true)
        #expect(panel.message?.text.contains("out of range") == true)
        #expect(panel.value(.cutoff) == 1_000)
        #expect(panel.history.undoSteps.isEmpty)
    }

    @Test("Escape cancels a prompt; the text field edits like a shell prompt")
    func promptEditing() {
        let (panel, _) = makePanel()
        panel.type("=800", at: 0)
        panel.press(.escape, at: 0)
        #expect(panel.mode == .normal)
        #expect(panel.value(.cutoff) == 1_000)
        panel.type("=8000", at: 1)      // 8000|
        panel.press(.backspace, at: 1)  // 800|
        panel.press(.left, at: 1)
        panel.press(.left, at: 1)       // 8|00
        panel.type("5", at: 1)          // 85|00
        guard case .valueEntry(let field) = panel.mode else {
            Issue.record("the prompt closed")
            return
        }
        #expect(field.text == "8500")
        #expect(field.cursor == 2)
        panel.press(.enter, at: 1)
        #expect(panel.value(.cutoff) == 8_500)
    }

    @Test("d resets the focused knob to its default, D all of them; both glide")
    func resets() {
        var defaults = ParameterValues(table: LowpassGain.table)
        defaults[.cutoff] = 2_000
        let noAudio = NoAudioHost()
        let panel = Panel(values: ParameterValues(table: LowpassGain.table, [.cutoff: 300, .resonance: 4, .gain: -20]), defaults: defaults,
                          host: noAudio, store: PresetStore(userDirectory: "/nonexistent"))
        panel.type("d", at: 1)
        #expect(panel.value(.cutoff) == 2_000)
        #expect(panel.knob(.cutoff).isAnimating(at: 1.01))
        #expect(panel.value(.resonance) == 4)
        panel.type("D", at: 2)
        #expect(panel.value(.resonance) == LowpassGain.table[.resonance].defaultValue)
        #expect(panel.value(.gain) == LowpassGain.table[.gain].defaultValue)
        // D is one step: one undo brings both back.
        panel.type("u", at: 3)
        #expect(panel.value(.resonance) == 4)
        #expect(panel.value(.gain) == -20)
        #expect(panel.value(.cutoff) == 2_000)
    }

    @Test("u undoes and r redoes knob moves; quick steps of one knob are one move")
    func undoRedo() {
        let (panel, host) = makePanel()
        for i in 0..<5 { panel.press(.up, at: 1 + Double(i) * 0.2) }
        var reference = referenceKnob(.cutoff)
        for i in 0..<5 { reference.press(.increment, at: 1 + Double(i) * 0.2) }
        #expect(panel.value(.cutoff) == reference.value)
        // A pause longer than the burst gap starts a new move.
        panel.press(.up, at: 1.8 + UndoHistory.burstGap + 0.1)
        let afterSix = panel.value(.cutoff)
        panel.type("u", at: 5)
        #expect(panel.value(.cutoff) == reference.value)
        panel.type("u", at: 6)
        #expect(panel.value(.cutoff) == 1_000)
        #expect(host.values[.cutoff] == 1_000)
        panel.type("u", at: 7)
        #expect(panel.message?.text == "nothing to undo")
        panel.type("r", at: 8)
        #expect(panel.value(.cutoff) == reference.value)
        panel.type("r", at: 9)
        #expect(panel.value(.cutoff) == afterSix)
        // A new move drops what could have been redone.
        panel.type("u", at: 10)
        panel.press(.tab, at: 11)
        panel.press(.up, at: 11)
        panel.type("r", at: 12)
        #expect(panel.message?.text == "nothing to redo")
    }

    @Test("the modified marker follows the values: set by a turn, cleared by undoing it")
    func modified() {
        let (panel, _) = makePanel()
        #expect(!panel.isModified)
        panel.press(.up, at: 1)
        #expect(panel.isModified)
        panel.type("u", at: 2)
        #expect(!panel.isModified)
    }

    @Test("q and Ctrl-C quit, Ctrl-Z asks to suspend, c switches the drag style")
    func controlKeys() {
        let (panel, _) = makePanel()
        panel.press(.character("z"), .ctrl, at: 0)
        #expect(panel.suspendRequested)
        panel.type("c", at: 0)
        #expect(panel.dragStyle == .circular)
        #expect(panel.knobs.allSatisfy { $0.behavior.dragStyle == .circular })
        panel.type("c", at: 0)
        #expect(panel.knobs.allSatisfy { $0.behavior.dragStyle == .vertical })
        #expect(!panel.quitRequested)
        panel.type("q", at: 0)
        #expect(panel.quitRequested)
        let (other, _) = makePanel()
        other.type("=", at: 0)
        other.press(.character("c"), .ctrl, at: 0)  // even inside a prompt
        #expect(other.quitRequested)
    }

    @Test("? opens the help; Escape or ? closes it; keys do not turn knobs meanwhile")
    func help() {
        let (panel, _) = makePanel()
        panel.type("?", at: 0)
        #expect(panel.mode == .help)
        panel.press(.up, at: 0)
        #expect(panel.value(.cutoff) == 1_000)
        panel.type("?", at: 0)
        #expect(panel.mode == .normal)
    }
}
