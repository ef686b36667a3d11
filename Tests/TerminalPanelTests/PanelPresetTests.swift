import AudioEngine
import Foundation
import KnobKit
import Presets
import Testing
import Parameters
import TestSupport
@testable import TerminalPanel

/// `p` and `s`: the browser loads through the store, saving writes a user preset through
/// the store (atomic, validated), with a question before replacing one.
@Suite("Panel presets")
struct PanelPresetTests {
    @Test("p lists the store's presets; Enter loads the selected one, the knobs glide, one undo step")
    func browseAndLoad() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let (panel, host) = makePanel(store: store)
        panel.type("p", at: 0)
        guard case .browser(let browser) = panel.mode else {
            Issue.record("no browser")
            return
        }
        let names = try store.list().map(\.name)
        #expect(browser.rows.map(\.name) == names)
        let target = try #require(names.firstIndex(of: "Dark"))
        for _ in 0..<target { panel.press(.down, at: 0) }
        panel.press(.enter, at: 1)
        let dark = try store.load(named: "Dark")
        #expect(panel.mode == .normal)
        #expect(panel.presetName == "Dark")
        #expect(!panel.isModified)
        for id in LowpassGain.table.ids {
            #expect(panel.value(id) == dark.values[id])
            // The host heard every value that changed; the others it had from the start.
            #expect((host.values[id] ?? ParameterValues(table: LowpassGain.table)[id]) == dark.values[id])
        }
        #expect(panel.knob(.cutoff).isAnimating(at: 1.01))
        panel.type("u", at: 2)
        #expect(panel.value(.cutoff) == LowpassGain.table[.cutoff].defaultValue)
        #expect(panel.isModified)  // the Dark preset is still the one being edited
    }

    @Test("Escape closes the browser without loading")
    func browseCancel() {
        let (panel, host) = makePanel()
        panel.type("p", at: 0)
        panel.press(.down, at: 0)
        panel.press(.escape, at: 0)
        #expect(panel.mode == .normal)
        #expect(host.sent.isEmpty)
    }

    @Test("s saves the knobs as a user preset under the typed name; the marker clears")
    func save() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let (panel, _) = makePanel(store: store)
        panel.press(.up, at: 0)
        #expect(panel.isModified)
        panel.type("s", at: 1)
        panel.type("Bright", at: 1)
        panel.press(.enter, at: 1)
        let saved = try store.load(named: "Bright")
        // Values are written at the precision they are kept at.
        #expect(saved.values[.cutoff] == KnobPrecision.kept(panel.value(.cutoff)))
        #expect(saved.values[.gain] == KnobPrecision.kept(panel.value(.gain)))
        #expect(panel.presetName == "Bright")
        #expect(!panel.isModified)
        #expect(panel.message?.isError == false)
        #expect(panel.message?.text.hasPrefix("saved 'Bright' to ") == true)
    }

    @Test("saving over an existing user preset asks first: n keeps it, y replaces it")
    func replace() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        try store.save(Preset(name: "Mine", values: ParameterValues(table: LowpassGain.table, [.cutoff: 333])), replacing: false)
        let (panel, _) = makePanel(store: store)
        panel.type("sMine", at: 0)
        panel.press(.enter, at: 0)
        #expect(panel.mode == .confirmReplace("Mine"))
        panel.type("n", at: 0)
        #expect(try store.load(named: "Mine").values[.cutoff] == 333)
        #expect(panel.message?.text == "not saved")
        panel.type("s", at: 1)
        // The prompt starts empty: this preset was never named.
        panel.type("mine", at: 1)
        panel.press(.enter, at: 1)
        #expect(panel.mode == .confirmReplace("mine"))
        panel.type("y", at: 1)
        #expect(try store.load(named: "Mine").values[.cutoff] == LowpassGain.table[.cutoff].defaultValue)
        #expect(try folderContents(store.userDirectory) == ["Mine.json"])
    }

    @Test("a name the store refuses is one line on the status bar; nothing is written")
    func badName() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let (panel, _) = makePanel(store: store)
        panel.type("s Lead", at: 0)
        panel.press(.enter, at: 0)
        let expected = PresetError(.invalidName(name: " Lead", reason: "a name must not start or end with white space"))
        #expect(panel.message == Panel.Message(text: expected.description, isError: true))
        #expect(!FileManager.default.fileExists(atPath: store.userDirectory))
    }

    @Test("the save prompt starts with the loaded preset's name; author and comment are kept")
    func keepsDetails() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let base = Preset(name: "Warm", author: "Ada", comment: "soft", values: ParameterValues(table: LowpassGain.table, [.cutoff: 700]))
        let (panel, _) = makePanel(values: base.values, store: store, preset: base)
        #expect(panel.presetName == "Warm")
        panel.press(.up, at: 0)
        panel.type("s", at: 0)
        #expect(panel.mode == .saveName(TextField("Warm")))
        panel.press(.enter, at: 0)
        let saved = try store.load(named: "Warm")
        #expect(saved.preset.author == "Ada")
        #expect(saved.preset.comment == "soft")
        #expect(saved.values[.cutoff] == KnobPrecision.kept(panel.value(.cutoff)))
    }
}
