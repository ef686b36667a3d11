import AudioEngine
import Presets
import Testing
import TestSupport
@testable import TerminalPanel

/// Preset names and typed text with wide characters: the panel lays them out by the columns a
/// terminal gives them, checked on an emulator that measures with the C library's `wcwidth`.
@Suite("Panel wide text")
struct PanelWideTextTests {
    static let names = ["暗い音", "Café ☕ Lounge"]

    /// The columns a terminal gives `text`, measured as the emulator does.
    func terminalColumns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + max(ScreenEmulator.columns($1), 0) }
    }

    /// The panel's screen (and cursor) as a terminal shows it.
    func show(_ panel: Panel, at time: Double) -> ScreenEmulator {
        var emulator = ScreenEmulator(width: panel.width, height: panel.height)
        var writer = FrameWriter(theme: Theme(color: true))
        let (screen, cursor) = PanelRenderer.render(panel, at: time)
        emulator.feed(writer.frame(screen, cursor: cursor))
        return emulator
    }

    func panelWithWidePresets(in root: TemporaryFolder) throws -> Panel {
        let store = makeStore(in: root.path)
        for name in Self.names { _ = try store.save(Preset(name: name), replacing: false) }
        return makePanel(store: store).0
    }

    @Test("the browser: borders and the origin column line up on rows with wide names")
    func browser() throws {
        let root = TemporaryFolder()
        let panel = try panelWithWidePresets(in: root)
        panel.type("p", at: 0)
        let screen = show(panel, at: 0)
        let rows = Self.names.map { name in (0..<screen.height).first { screen.line($0).contains(name) } }
        let wideRows = try rows.map { try #require($0) }
        let darkRow = try #require((0..<screen.height).first { screen.line($0).contains("Dark") })
        let top = try #require((0..<screen.height).first { screen.line($0).contains("┌") })
        let left = try #require(screen.column(of: "┌", row: top))
        let right = try #require(screen.column(of: "┐", row: top))
        for row in wideRows + [darkRow] {
            #expect(screen.column(of: "│", row: row) == left, "row \(row): \(screen.line(row))")
            #expect(screen.glyph(x: right, y: row) == "│", "row \(row): \(screen.line(row))")
        }
        // Names start in one column; the origin column after them is the same for all.
        let origin = try #require(screen.column(of: "factory", row: darkRow))
        for (name, row) in zip(Self.names, wideRows) {
            #expect(screen.column(of: name, row: row) == screen.column(of: "Dark", row: darkRow))
            #expect(screen.column(of: "user", row: row) == origin, "\(screen.line(row))")
            #expect(screen.column(of: name, row: row)! + terminalColumns(name) < origin)
        }
    }

    @Test("the header: after a wide preset name, the status sits at the right edge")
    func header() throws {
        let root = TemporaryFolder()
        let panel = try panelWithWidePresets(in: root)
        panel.type("p", at: 0)
        // The browser lists names in order; select the first wide one and load it.
        guard case .browser(let browser) = panel.mode else { Issue.record("no browser"); return }
        let target = try #require(browser.rows.firstIndex { $0.name == Self.names[0] })
        panel.press(.home, at: 0)
        for _ in 0..<target { panel.press(.down, at: 0) }
        panel.press(.enter, at: 0)
        panel.press(.up, at: 1)  // modified
        let screen = show(panel, at: 10)
        let name = try #require(screen.column(of: Self.names[0], row: 0))
        #expect(screen.column(of: "(modified)", row: 0) == name + terminalColumns(Self.names[0]) + 1)
        #expect(screen.column(of: "no audio", row: 0) == panel.width - terminalColumns("no audio "))
    }

    @Test("a text field with wide input: what shows fits the width, the cursor sits after the character before it")
    func textField() {
        var field = TextField("暗い音")
        // Four columns before the cursor's own: the last two characters.
        #expect(field.visible(width: 5) == ("い音", 4))
        _ = field.handle(.left, [])
        #expect(field.visible(width: 5) == ("暗い", 4))
        _ = field.handle(.home, [])
        #expect(field.visible(width: 5) == ("暗い", 0))
        #expect(field.visible(width: 7) == ("暗い音", 0))
        var mixed = TextField("ab暗")
        _ = mixed.handle(.left, [])
        #expect(mixed.visible(width: 4) == ("ab暗", 2))
        #expect(mixed.visible(width: 3) == ("ab", 2))
    }

    @Test("typing a wide name at the save prompt: the terminal's cursor is right after it")
    func savePrompt() throws {
        let (panel, _) = makePanel()
        panel.type("s", at: 0)
        panel.type("暗い音x", at: 0)
        panel.press(.left, at: 0)
        let screen = show(panel, at: 0)
        let row = panel.layout.statusRow
        let start = try #require(screen.column(of: "暗い音x", row: row))
        #expect(screen.column(of: "Save preset as: ", row: row) == 0)
        #expect(start == terminalColumns("Save preset as: "))
        #expect(!screen.cursorHidden)
        #expect(screen.cursorY == row)
        #expect(screen.cursorX == start + terminalColumns("暗い音"))
    }
}
