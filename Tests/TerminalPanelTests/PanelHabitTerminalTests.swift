#if canImport(Glibc)
import Glibc
#endif
import AudioEngine
import Foundation
import Testing
import Parameters
import TestSupport
@testable import TerminalPanel

/// The habits of issue "the bugs and habits a daily user hits", through the built `detent
/// panel` on a pseudo-terminal: bracketed paste, number keys, the mute key, the locale's
/// ASCII fallback and the typographic minus. Every wait is for screen content, bounded.
@Suite("detent panel habits in a pseudo-terminal", .serialized)
struct PanelHabitTerminalTests {
    func start(_ arguments: [String] = ["panel"], config: TemporaryFolder, environment extra: [String: String] = [:],
               width: Int = 80, height: Int = 24) throws -> PseudoTerminal {
        let environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": config.path, "XDG_CONFIG_HOME": config.path]
            .merging(extra) { $1 }
        return try PseudoTerminal(try BuiltProducts.detent, arguments, in: config.path, environment: environment,
                                  width: width, height: height)
    }

    static let pasteStart = "\u{1B}[200~", pasteEnd = "\u{1B}[201~"

    @Test("bracketed paste is on while the panel runs; a paste outside the prompt runs nothing, in it is typed")
    func paste() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config)
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.modes.contains(2004) })
        // A pasted `-6 dB`, `d`, `D` and `q` would turn, reset and quit as keys.
        pty.send(Self.pasteStart + "-6 dB\rdDq" + Self.pasteEnd)
        #expect(pty.wait { $0.contains("paste ignored") })
        #expect(pty.screen.contains("1.00 kHz") && pty.screen.contains("0.0 dB"))
        #expect(!pty.screen.contains("(modified)"))
        // Into the prompt: taken as typed; Enter still submits.
        pty.send("3=")
        #expect(pty.wait { $0.contains("Gain = 0.0 dB") })
        pty.send(Self.pasteStart + "\u{2212}6 dB\n" + Self.pasteEnd)
        #expect(pty.wait { $0.contains("= \u{2212}6 dB") })
        pty.send("\r")
        #expect(pty.wait { $0.contains("\u{2212}6.0 dB") && $0.contains("(modified)") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        #expect(pty.wait(seconds: 10) { !$0.modes.contains(2004) })
    }

    @Test("1…9 focus a knob; M mutes the level and gives it back; −inf is read as silence")
    func numberKeysMuteAndMinus() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config)
        #expect(pty.wait { $0.contains("[Cutoff]") })
        pty.send("3")
        #expect(pty.wait { $0.contains("[Gain]") })
        pty.send("2")
        #expect(pty.wait { $0.contains("[Resonance]") })
        pty.send("M")
        #expect(pty.wait { $0.contains("\u{2212}∞ dB") && $0.contains("Gain muted") })
        pty.send("M")
        #expect(pty.wait { $0.contains("0.0 dB") && $0.contains("Gain unmuted") })
        pty.send("3=\u{2212}inf\r")
        #expect(pty.wait { $0.contains("\u{2212}∞ dB") && $0.contains("[Gain]") })
        pty.send("=\u{2212}\u{221E}dB\r")
        #expect(pty.wait { $0.contains("q quit") })
        #expect(!pty.screen.contains("invalid"))
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
    }

    @Test("LANG=C: the panel draws ASCII by itself; a UTF-8 locale gets braille", arguments: [
        (["LANG": "C"], true), (["LANG": "C.UTF-8", "LC_ALL": "POSIX"], true), (["LANG": "en_US.UTF-8"], false),
    ])
    func localeFallback(environment: [String: String], ascii: Bool) throws {
        let config = TemporaryFolder()
        let pty = try start(config: config, environment: environment)
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("q quit") })
        #expect(pty.screen.text.allSatisfy(\.isASCII) == ascii)
        #expect(pty.screen.contains("Up/Dn turn") == ascii)
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
    }

    @Test("--theme light draws no bright white or yellow; a bad DETENT_THEME is one line and status 64")
    func theme() throws {
        let config = TemporaryFolder()
        let pty = try start(["panel", "--theme", "light"], config: config)
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("q quit") })
        pty.send("\u{1B}[A")
        #expect(pty.wait { $0.contains("(modified)") })
        let written = String(decoding: pty.output, as: UTF8.self)
        for color in [";97m", ";93m", ";96m"] { #expect(!written.contains(color)) }
        #expect(written.contains(";34m"))
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)

        let bad = try start(config: config, environment: ["DETENT_THEME": "sepia"])
        #expect(bad.waitForExit()?.exited == 64)
        #expect(bad.wait { $0.contains("detent: DETENT_THEME 'sepia' is not a theme (choose one of dark, light, plain)") })
        #expect(!String(decoding: bad.output, as: UTF8.self).contains("\u{1B}[?1049h"))
    }
}

extension PanelHabitTerminalTests {
    @Test("at 160 × 50 the knobs are drawn larger and the curve takes the rest")
    func scaledKnobs() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config, width: 160, height: 50)
        let layout = PanelLayout(width: 160, height: 50, knobCount: 3, nameWidth: 9, meterCount: 0)
        #expect(layout.artSize.rows > KnobPainter.artRows)
        #expect(pty.wait { $0.line(layout.slots[0].nameRow).contains("[Cutoff]") && $0.contains("Filter response") })
        // The arc fills rows the standard knob would leave for the curve.
        #expect(pty.screen.line(2 + KnobPainter.artRows + 4).contains { $0 != " " })
        #expect(!pty.screen.line(2 + KnobPainter.artRows).contains("Cutoff"))
        // A resize to 80 × 24 draws the standard knobs again.
        pty.resize(width: 80, height: 24)
        #expect(pty.wait { $0.line(2 + KnobPainter.artRows).contains("[Cutoff]") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
    }
}
