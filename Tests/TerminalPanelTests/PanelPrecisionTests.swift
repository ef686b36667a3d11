import AudioEngine
import KnobKit
import Parameters
import Testing
@testable import TerminalPanel

/// Precision: a fine step is seen (more decimals while turning finely), and the value prompt
/// starts with the current value, selected, so typing replaces it and a cursor key edits it.
@Suite("Panel precision")
struct PanelPrecisionTests {
    func valueRow(_ panel: Panel, at time: Double) -> String {
        PanelRenderer.render(panel, at: time).screen.text(row: panel.layout.slots[0].valueRow)
    }

    @Test("a fine step shows two more decimals while the value shows; a plain step does not")
    func fineStepShows() {
        let (panel, _) = makePanel()
        panel.press(.up, .ctrl, at: 1)
        let precise = panel.knob(.cutoff).valueText(extraDigits: 2)
        #expect(precise != panel.knob(.cutoff).valueText())
        #expect(precise == "1.0069 kHz")
        #expect(valueRow(panel, at: 1.1).contains(precise))
        // Once the label goes back to the name, the usual digits again.
        #expect(!valueRow(panel, at: 100).contains(precise))
        panel.press(.up, at: 101)
        #expect(panel.preciseKnob == nil)
        #expect(valueRow(panel, at: 101).contains(panel.knob(.cutoff).valueText()))
    }

    @Test("a drag slowed by moving sideways shows the extra decimals too; straight up it does not")
    func slowDragShows() {
        let (panel, _) = makePanel(width: 120, height: 30)
        let slot = panel.layout.slots[0]
        let (x, y) = (Int(slot.center.x), Int(slot.center.y))
        panel.mouse(.press(.left), x: x, y: y, at: 0)
        panel.mouse(.drag(.left), x: x, y: y - 1, at: 0.1)
        #expect(panel.preciseKnob == nil)
        panel.mouse(.drag(.left), x: panel.width - 1, y: y - 2, at: 0.2)
        #expect(panel.preciseKnob == 0)
        let row = PanelRenderer.render(panel, at: 0.2).screen.text(row: slot.valueRow)
        #expect(row.contains(panel.knob(.cutoff).valueText(extraDigits: Panel.preciseDigits)))
        panel.mouse(.release(.left), x: panel.width - 1, y: y - 2, at: 0.3)
    }

    @Test("extra decimals are only those that are not zeros")
    func trailingZeros() {
        let cutoff = LowpassGain.table[.cutoff], gain = LowpassGain.table[.gain]
        #expect(cutoff.format(1000, ascii: false, extraDigits: 2) == "1.00 kHz")
        #expect(cutoff.format(1071.52, ascii: false, extraDigits: 2) == "1.0715 kHz")
        #expect(gain.format(-6.07, ascii: true, extraDigits: 2) == "-6.07 dB")
        #expect(gain.format(-60, ascii: true, extraDigits: 2) == "-inf dB")
        #expect(DecimalText.fixed(0.7, decimals: 2, extraDecimals: 2) == "0.70")
        #expect(DecimalText.fixed(0.7071, decimals: 2, extraDecimals: 2) == "0.7071")
        #expect(DecimalText.fixed(12, decimals: 0, extraDecimals: 2) == "12")
    }

    @Test("the value prompt starts with the value, selected: typing replaces it, ← edits it")
    func prefilledPrompt() {
        let (panel, _) = makePanel()
        panel.type("3=", at: 0)
        #expect(panel.mode == .valueEntry(TextField("0.0 dB", selected: true)))
        let status = PanelRenderer.render(panel, at: 0).screen.text(row: panel.height - 1)
        #expect(status.hasPrefix("Gain = 0.0 dB"))
        let screen = PanelRenderer.render(panel, at: 0).screen
        #expect(screen[7, panel.height - 1].role == .overlaySelected)  // the offered "0.0 dB", selected
        #expect(screen[0, panel.height - 1].role == .prompt)
        panel.type("-3", at: 1)
        panel.press(.enter, at: 1)
        #expect(panel.value(.gain) == -3)
        // Editing the offered text: ← keeps it, Backspace then takes one character.
        panel.type("=", at: 2)
        panel.press(.left, at: 2)
        panel.press(.end, at: 2)
        for _ in 0..<4 { panel.press(.backspace, at: 2) }  // "-3.0 dB" → "-3."
        panel.type("5", at: 2)
        panel.press(.enter, at: 2)
        #expect(panel.value(.gain) == -3.5)
        // Backspace on the selection clears it.
        panel.type("=", at: 3)
        panel.press(.backspace, at: 3)
        #expect(panel.mode == .valueEntry(TextField("")))
    }

    @Test("Enter on the offered value keeps the knob where it is")
    func enterUnchanged() {
        let (panel, host) = makePanel()
        panel.press(.up, .ctrl, at: 0)
        let value = panel.value(.cutoff)
        panel.type("=", at: 1)
        panel.press(.enter, at: 1)
        #expect(panel.value(.cutoff) == value)
        #expect(host.sent.count == 1)
        #expect(panel.message == nil)
    }
}
