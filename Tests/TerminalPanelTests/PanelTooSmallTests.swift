import AudioEngine
import Parameters
import Presets
import Testing
@testable import TerminalPanel

/// The "window too small" notice shows no knobs, so no key or click may change one: only
/// quitting, suspending and repainting work there.
@Suite("Panel in a window too small")
struct PanelTooSmallTests {
    @Test("keys, typed values and the mouse change nothing while the knobs are not shown")
    func nothingActsUnseen() {
        let (panel, host) = makePanel(width: 12, height: 3)
        #expect(panel.layout.style == .tooSmall)
        for key in [Key.up, .down, .pageUp, .end, .home, .tab] { panel.press(key, at: 1) }
        panel.type("kj+-dDur=3k", at: 1)
        panel.press(.enter, at: 1)
        panel.mouse(.wheel(.up), x: 1, y: 1, at: 1)
        panel.mouse(.press(.left), x: 1, y: 1, at: 1)
        panel.mouse(.drag(.left), x: 1, y: 0, at: 1)
        panel.mouse(.release(.left), x: 1, y: 0, at: 1)
        #expect(host.sent.isEmpty)
        #expect(panel.mode == .normal)
        #expect(panel.focus == 0)
        #expect(panel.values == ParameterValues(table: LowpassGain.table))
        panel.type("q", at: 2)
        #expect(panel.quitRequested)
    }

    @Test("a window grown back shows the knobs and takes keys again")
    func growsBack() {
        let (panel, host) = makePanel(width: 12, height: 3)
        panel.resize(width: 80, height: 24, at: 1)
        panel.press(.up, at: 2)
        #expect(host.sent.count == 1)
    }
}
