import AudioEngine
import Parameters
import Testing
@testable import TerminalPanel

/// Bracketed paste: the decoder turns a marked paste into one text event, split anywhere;
/// the panel puts it into an open prompt as if typed and runs no command from it.
@Suite("Bracketed paste")
struct PanelPasteTests {
    static let start = "\u{1B}[200~", end = "\u{1B}[201~"

    @Test("a paste is one text event, keys before and after stay keys")
    func decoded() {
        var decoder = InputDecoder()
        let events = decoder.feed(Array("k\(Self.start)-6 dB\rq\u{1B}[A\(Self.end)j".utf8))
        #expect(events == [.char("k"), .paste("-6 dB\rq\u{1B}[A"), .char("j")])
        #expect(!decoder.isPasting)
    }

    @Test("a paste split at every byte, end marker included, decodes the same")
    func splitAnywhere() {
        let bytes = Array("\(Self.start)−inf\(Self.end)k".utf8)
        for cut in 1..<bytes.count {
            var decoder = InputDecoder()
            let events = decoder.feed(bytes[0..<cut]) + decoder.feed(bytes[cut...])
            #expect(events == [.paste("−inf"), .char("k")], "cut at \(cut)")
        }
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for b in bytes { events += decoder.feed([b]) }
        #expect(events == [.paste("−inf"), .char("k")])
    }

    @Test("a paste whose end never comes is still a paste when flushed, never keys")
    func unterminated() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\(Self.start)qqq\u{1B}[20".utf8)) == [])
        #expect(decoder.isPasting)
        #expect(decoder.flush() == [.paste("qqq\u{1B}[20")])
        #expect(decoder.feed(Array("k".utf8)) == [.char("k")])
    }

    @Test("a huge paste is cut to its limit, and what follows it is read again")
    func huge() {
        var decoder = InputDecoder()
        let text = String(repeating: "x", count: InputDecoder.maximumPasteLength + 100)
        let events = decoder.feed(Array((Self.start + text + Self.end + "k").utf8))
        #expect(events == [.paste(String(repeating: "x", count: InputDecoder.maximumPasteLength)), .char("k")])
    }

    @Test("outside a prompt a paste runs nothing and says so")
    func refusedOutsidePrompt() {
        let (panel, host) = makePanel()
        for text in ["-6 dB", "q", "dDu=3k\r", "\t+++"] { panel.handle(.paste(text), at: 1) }
        #expect(host.sent.isEmpty)
        #expect(!panel.quitRequested)
        #expect(panel.mode == .normal)
        #expect(panel.focus == 0)
        #expect(panel.message?.text.hasPrefix("paste ignored") == true)
    }

    @Test("in the value prompt a paste is taken as typed; its newline does not submit")
    func intoValuePrompt() {
        let (panel, _) = makePanel()
        panel.press(.tab, at: 0)
        panel.press(.tab, at: 0)
        panel.type("=", at: 0)
        for _ in 0..<20 { panel.press(.backspace, at: 0) }
        panel.handle(.paste("−6 dB\n"), at: 1)
        #expect(panel.mode == .valueEntry(TextField("−6 dB")))
        panel.press(.enter, at: 1)
        #expect(panel.value(.gain) == -6)
    }

    @Test("in the save prompt a pasted name loses its line break")
    func intoNamePrompt() {
        let (panel, _) = makePanel()
        panel.type("s", at: 0)
        panel.handle(.paste("  Warm pad\r\n"), at: 1)
        #expect(panel.mode == .saveName(TextField("Warm pad")))
    }
}
