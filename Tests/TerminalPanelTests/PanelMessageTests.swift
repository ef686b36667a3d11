import AudioEngine
import Parameters
import Testing
import TestSupport
@testable import TerminalPanel

/// The status line's messages: each lasts until the next event or a few seconds, so the key
/// hints come back and an old error never sits beside a value that was since accepted.
@Suite("Panel messages")
struct PanelMessageTests {
    @Test("an accepted value replaces the error of the value typed before it")
    func acceptedValueClearsError() {
        let (panel, _) = makePanel()
        panel.type("=loud", at: 1)
        panel.press(.enter, at: 1)
        #expect(panel.message?.isError == true)
        panel.type("=3k", at: 2)
        panel.press(.enter, at: 2)
        #expect(panel.value(.cutoff) == 3_000)
        #expect(panel.message == nil)
        let (screen, _) = PanelRenderer.render(panel, at: 2)
        #expect(screen.text(row: panel.height - 1).contains("q quit"))
    }

    @Test("the next key turn replaces a message")
    func nextEventReplaces() {
        let (panel, _) = makePanel()
        panel.type("u", at: 1)
        #expect(panel.message?.text == "nothing to undo")
        panel.press(.up, at: 1.5)
        #expect(panel.message == nil)
    }

    @Test("a message expires by itself after a few seconds; the loop is told when")
    func expires() {
        let (panel, _) = makePanel()
        panel.type("=loud", at: 10)
        panel.press(.enter, at: 10)
        let expiry = 10 + Panel.messageDuration
        #expect(panel.nextChange(after: 10) ?? .infinity <= expiry)
        #expect(PanelRenderer.render(panel, at: 10.5).screen.text(row: panel.height - 1).contains("loud"))
        let later = PanelRenderer.render(panel, at: expiry + 0.01).screen.text(row: panel.height - 1)
        #expect(!later.contains("loud"))
        #expect(later.contains("q quit"))
        panel.advance(to: expiry + 0.01)
        #expect(panel.message == nil)
        #expect(panel.needsDraw)
    }

    @Test("a long 'saved' message expires like any other")
    func savedExpires() throws {
        let root = TemporaryFolder()
        let (panel, _) = makePanel(store: makeStore(in: root.path))
        panel.type("sLong", at: 0)
        panel.press(.enter, at: 0)
        #expect(panel.message?.text.hasPrefix("saved") == true)
        panel.advance(to: Panel.messageDuration + 1)
        #expect(panel.message == nil)
    }
}
