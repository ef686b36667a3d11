import AudioEngine
import KnobKit
import Parameters
import Testing
@testable import TerminalPanel

/// Drags with cell reports: the travel follows the drawn knob, and a drag moved out sideways
/// reaches every value the knob displays, one row at a time, with no modifier.
@Suite("Panel drag feel")
struct PanelDragFeelTests {
    @Test("a standard knob (6 rows) travels 8 rows; straight up, a row is still an eighth")
    func travel() {
        let (panel, _) = makePanel()
        let slot = panel.layout.slots[2]
        let (x, y) = (Int(slot.center.x), Int(slot.center.y))
        panel.mouse(.press(.left), x: x, y: y, at: 0)
        #expect(panel.knob(.gain).behavior.travelCells == 8)
        panel.mouse(.drag(.left), x: x, y: y - 1, at: 0.1)
        #expect(abs(panel.knob(.gain).position - (referenceKnob(.gain).position + 1.0 / 8)) < 1e-12)
    }

    @Test("far out sideways, every displayed value is reached one row at a time", arguments: [
        (ParameterIndex.cutoff, "=9.5k", "9.99 kHz"), (.resonance, "=8", "9.99"), (.gain, "=-10", "+0.5 dB"),
    ])
    func everyDisplayedValue(id: ParameterIndex, start: String, end: String) {
        let (panel, _) = makePanel(width: 120, height: 30)
        let index = panel.ids.firstIndex(of: id)!
        panel.type("\(index + 1)\(start)", at: 0)
        panel.press(.enter, at: 0)
        let slot = panel.layout.slots[index]
        let (x, y) = (Int(slot.center.x), Int(slot.center.y))
        panel.mouse(.press(.left), x: x, y: y, at: 1)
        // Out to the far side of the window (a sideways move alone turns nothing)…
        let far = index == 0 ? panel.width - 1 : 0
        panel.mouse(.drag(.left), x: far, y: y, at: 1)
        var seen: [String] = [panel.knobs[index].valueText()]
        var row = y
        // …then up, a row at a time.
        while seen.last != panel.knobs[index].scale.format(panel.knobs[index].scale.range.upperBound), seen.last != end, row > y - 20_000 {
            row -= 1
            panel.mouse(.drag(.left), x: far, y: row, at: 1)
            let text = panel.knobs[index].valueText()
            if text != seen.last { seen.append(text) }
        }
        panel.mouse(.release(.left), x: far, y: row, at: 1)
        #expect(seen.last == end)
        // Every text between the start and the end appeared: no displayed value was skipped.
        let scale = panel.knobs[index].scale
        var expected: [String] = []
        for i in 0...200_000 {
            let v = scale.value(atNormalized: panel.knobs[index].scale.normalized(try! scale.parse(String(start.dropFirst())))
                                + Double(i) * 1e-6)
            let text = scale.format(v)
            if text != expected.last { expected.append(text) }
            if text == end { break }
        }
        #expect(seen == expected, "\(id): \(seen.count) seen, \(expected.count) displayed")
    }
}
