import AudioEngine
import Foundation
import Presets
import Testing
import Parameters
import TestSupport
@testable import TerminalPanel

/// What saving from the panel means beyond writing a file: a saved Default moves the reset
/// targets at once, values are kept at a stated precision so a step up and down is no edit,
/// and a saved preset does not claim another's author or comment.
@Suite("Panel preset saving")
struct PanelPresetSavingTests {
    @Test("saving Default moves the reset targets at once")
    func savedDefaultMovesResetTargets() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let factory = store.defaultPreset()
        let (panel, _) = makePanel(store: store, preset: factory.preset, origin: factory.origin)
        panel.type("=3k", at: 0)
        panel.press(.enter, at: 0)
        panel.save(as: "Default", at: 1)
        #expect(panel.message?.text.hasPrefix("saved 'Default'") == true)
        panel.press(.end, at: 2)
        panel.type("d", at: 3)
        #expect(panel.value(.cutoff) == 3_000)
        // Saved under another spelling of the name, the same.
        panel.type("=5k", at: 4)
        panel.press(.enter, at: 4)
        panel.save(as: "default", at: 5)
        panel.type("y", at: 5)
        panel.press(.home, at: 6)
        panel.type("d", at: 7)
        #expect(panel.value(.cutoff) == 5_000)
    }

    @Test("a step up and a step down give the loaded value back: no '(modified)', the file keeps 1.4")
    func stepUpAndDownIsNoEdit() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let (panel, _) = makePanel(store: store)
        panel.load(try store.load(named: "Telephone"), at: 0)
        #expect(!panel.isModified)
        panel.press(.tab, at: 1)
        panel.press(.up, at: 1)
        #expect(panel.isModified)
        panel.press(.down, at: 1)
        #expect(panel.value(.resonance) == 1.4)
        #expect(!panel.isModified)
        let (screen, _) = PanelRenderer.render(panel, at: 5)
        #expect(!screen.contains("(modified)"))
        panel.save(as: "Mine", at: 2)
        let text = try String(contentsOfFile: store.userDirectory + "/Mine.json", encoding: .utf8)
        #expect(text.contains("\"resonance\": 1.4\n") || text.contains("\"resonance\": 1.4,"))
        #expect(!text.contains("1.4000000"))
    }

    @Test("fine and coarse steps up and down return to the start, for every parameter",
          arguments: LowpassGain.table.ids)
    func stepsReturn(id: ParameterIndex) {
        let (panel, _) = makePanel()
        panel.setFocus(panel.ids.firstIndex(of: id)!)
        for start in stride(from: 0.05, to: 0.85, by: 0.0731) {  // a page from any of them stays inside
            let value = LowpassGain.table[id].value(atNormalized: start)
            panel.enterForTest(value)
            let before = panel.value(id)
            for (up, down) in [(Key.up, Key.down), (.pageUp, .pageDown)] {
                for mods in [KeyModifiers(), .ctrl] {
                    panel.press(up, mods, at: 1)
                    panel.press(down, mods, at: 1)
                    #expect(panel.value(id) == before, "\(id) \(up) \(mods) from \(before)")
                }
            }
        }
    }

    @Test("a knob differing below the stated precision is not a change")
    func comparesAtStatedPrecision() {
        let preset = Preset(name: "Near", values: ParameterValues(table: LowpassGain.table, [.resonance: 1.4]))
        let values = ParameterValues(table: LowpassGain.table, [.resonance: 1.4000000000000001.nextUp])
        let (panel, _) = makePanel(values: values, preset: preset)
        #expect(!panel.isModified)
    }

    @Test("saving a factory preset's values under any name keeps neither its author nor its comment")
    func factoryDetailsAreNotCopied() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let factory = store.defaultPreset()
        #expect(factory.preset.author == "Detent")
        let (panel, _) = makePanel(store: store, preset: factory.preset, origin: factory.origin)
        panel.type("=3k", at: 0)
        panel.press(.enter, at: 0)
        panel.save(as: "Default", at: 1)
        let saved = try store.load(named: "Default")
        #expect(saved.preset.author == nil)
        #expect(saved.preset.comment == nil)

        panel.load(try store.load(named: "Telephone"), at: 2)
        panel.save(as: "Phone", at: 3)
        let phone = try store.load(named: "Phone")
        #expect(phone.preset.author == nil)
        #expect(phone.preset.comment == nil)
    }

    @Test("a user preset saved under another name is a new preset: its details are not copied")
    func renamedUserPresetDropsDetails() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        try store.save(Preset(name: "Warm", author: "Ada", comment: "soft"), replacing: false)
        let (panel, _) = makePanel(store: store)
        panel.load(try store.load(named: "Warm"), at: 0)
        panel.save(as: "Cold", at: 1)
        #expect(try store.load(named: "Cold").preset.author == nil)
    }
}

extension Panel {
    /// `s`, the prompt emptied, `name`, Enter.
    func save(as name: String, at time: Double) {
        type("s", at: time)
        for _ in 0..<100 { press(.backspace, at: time) }
        type(name, at: time)
        press(.enter, at: time)
    }

    /// Types `value` into the focused knob's prompt, as the table writes it in full.
    func enterForTest(_ value: Double) {
        type("=", at: 0)
        if case .valueEntry = mode {
            for _ in 0..<40 { press(.backspace, at: 0) }
        }
        type(String(value), at: 0)
        press(.enter, at: 0)
    }
}
