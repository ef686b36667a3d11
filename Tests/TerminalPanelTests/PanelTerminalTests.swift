#if canImport(Glibc)
import Glibc
#endif
import AudioEngine
import Foundation
import KnobKit
import Testing
import Parameters
import TestSupport
@testable import TerminalPanel

/// `detent panel`, the built executable, on a pseudo-terminal: keys and mouse reports typed
/// into it change values and the screen; quitting, signals and errors leave the terminal as
/// it was found. Every wait is for screen content or the process's end, bounded by a deadline.
@Suite("detent panel in a pseudo-terminal", .serialized)
struct PanelTerminalTests {
    func start(_ arguments: [String] = ["panel"], config: TemporaryFolder, environment extra: [String: String] = [:],
               width: Int = 80, height: Int = 24) throws -> PseudoTerminal {
        let binary = try BuiltProducts.detent
        let environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": config.path, "XDG_CONFIG_HOME": config.path]
            .merging(extra) { $1 }
        return try PseudoTerminal(binary, arguments, in: config.path, environment: environment, width: width, height: height)
    }

    /// The 80 × 24 layout the panel draws, for aiming mouse reports.
    let layout = PanelLayout(width: 80, height: 24, knobCount: LowpassGain.table.ids.count,
                             nameWidth: LowpassGain.table.specs.map(\.name.count).max()!, meterCount: 0)

    /// Checks that the terminal is back as found: normal screen, cursor shown, mouse off,
    /// same settings. The last bytes may reach the master side a moment after the program
    /// ended, so it waits for them first (bounded).
    func expectRestored(_ pty: PseudoTerminal, settings before: termios) {
        pty.wait(seconds: 10) { !$0.alternateScreen && !$0.cursorHidden && !$0.mouseReporting }
        #expect(!pty.screen.alternateScreen)
        #expect(!pty.screen.cursorHidden)
        #expect(!pty.screen.mouseReporting)
        #expect(sameSettings(pty.settings(), before))
    }

    @Test("keys and mouse reports turn the knobs on screen; q restores the terminal")
    func keysMouseAndQuit() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("1.00 kHz") })
        #expect(pty.screen.alternateScreen)
        #expect(pty.screen.cursorHidden)
        #expect(pty.screen.modes.isSuperset(of: [1000, 1002, 1006]))
        #expect(!sameSettings(pty.settings(), before))  // raw mode while running

        // ↑ on Cutoff: one KnobKit step.
        var cutoff = referenceKnob(.cutoff)
        cutoff.press(.increment, at: 0)
        pty.send("\u{1B}[A")
        #expect(pty.wait { $0.contains(cutoff.valueText()) && $0.contains("(modified)") })

        // Tab, then Alt-k on Resonance: one fine step.
        var resonance = referenceKnob(.resonance)
        resonance.press(.increment, fine: true, at: 0)
        pty.send("\t")
        #expect(pty.wait { $0.contains("[Resonance]") })
        pty.send("\u{1B}k")
        #expect(pty.wait { $0.contains(resonance.valueText()) })

        // Two wheel notches down over Gain (SGR 1006: button 65, 1-based cells).
        let gainSlot = layout.slots[2]
        let gx = Int(gainSlot.center.x), gy = Int(gainSlot.center.y)
        var gain = referenceKnob(.gain)
        gain.scroll(notches: -1, at: 0)
        gain.scroll(notches: -1, at: 0)
        pty.send("\u{1B}[<65;\(gx + 1);\(gy + 1)M\u{1B}[<65;\(gx + 1);\(gy + 1)M")
        #expect(pty.wait { $0.contains("[Gain]") && $0.contains(gain.valueText()) })

        // A drag up on Cutoff: press, two rows up, release (KnobKit: 2 of 8 rows of travel).
        let cutoffSlot = layout.slots[0]
        let cx = Int(cutoffSlot.center.x), cy = Int(cutoffSlot.center.y)
        cutoff.pointerDown(KnobPoint(x: Double(cx) + 0.5, y: Double(cy) + 0.5), center: cutoffSlot.center, at: 10)
        cutoff.pointerMoved(KnobPoint(x: Double(cx) + 0.5, y: Double(cy - 2) + 0.5), at: 10.1)
        cutoff.pointerUp(KnobPoint(x: Double(cx) + 0.5, y: Double(cy - 2) + 0.5), at: 10.2)
        pty.send("\u{1B}[<0;\(cx + 1);\(cy + 1)M\u{1B}[<32;\(cx + 1);\(cy - 1)M\u{1B}[<0;\(cx + 1);\(cy - 1)m")
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains(cutoff.valueText()) })

        // u undoes the drag.
        var undone = referenceKnob(.cutoff)
        undone.press(.increment, at: 0)
        pty.send("u")
        #expect(pty.wait { $0.contains("undo: Cutoff \(undone.valueText())") })

        pty.send("q")
        let status = pty.waitForExit()
        #expect(status?.exited == 0)
        expectRestored(pty, settings: before)
    }

    @Test("a plug-in's row known only as 0…1 shows the plug-in's text, and a value typed in its words is read")
    func pluginsOwnWords() throws {
        let config = TemporaryFolder()
        // The plug-in index of this machine's user: read, not made again for the test's home.
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"] ?? (environment["HOME"] ?? "/root") + "/.cache"
        // LSP's Compressor Mono (VST2): its attack time follows a curve of its own.
        let pty = try start(["panel", "--plugin", "vst2:1650946937"], config: config, environment: ["XDG_CACHE_HOME": cache],
                            width: 160, height: 50)
        let before = pty.initialSettings
        #expect(pty.wait(seconds: 30) { $0.contains("Attack time") && $0.contains("20.0 ms") })
        pty.send(String(repeating: "\t", count: 17))
        #expect(pty.wait { $0.contains("[Attack time]") })
        pty.send("=")
        #expect(pty.wait { $0.contains("Attack time = 20.0 ms") })
        // Ctrl-U empties the offered text.
        pty.send("\u{15}30 ms\r")
        #expect(pty.wait { $0.contains("[Attack time]") && $0.contains("30.0 ms") && $0.contains("(modified)") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
    }

    @Test("Ctrl-C quits like q")
    func controlC() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("[Cutoff]") })
        pty.send([0x03])
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
    }

    @Test("SIGINT, SIGTERM and SIGHUP restore the terminal, then end the process by that signal",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func signals(signal: Int32) throws {
        try expectRestoredAfter(signal)
    }

    @Test("a fatal signal still restores the terminal (the last-resort handler), then kills as it would have",
          arguments: [SIGSEGV, SIGABRT, SIGQUIT])
    func crash(signal: Int32) throws {
        // With Swift's crash reporter on, a SIGSEGV sent by kill (not a real fault) is
        // reported and then survived; off, the default action follows the restore.
        try expectRestoredAfter(signal, environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    /// Sends `signal` to a running panel: the terminal must be restored and the process end
    /// by that signal.
    func expectRestoredAfter(_ signal: Int32, environment: [String: String] = [:],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let config = TemporaryFolder()
        let pty = try start(config: config, environment: environment)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("[Cutoff]") }, sourceLocation: sourceLocation)
        kill(pty.pid, signal)
        let status = pty.waitForExit()
        #expect(status?.signal == signal, sourceLocation: sourceLocation)
        expectRestored(pty, settings: before)
    }

    @Test("resizing the window redraws for the new size: compact, then too small, then full again")
    func resize() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config)
        #expect(pty.wait { $0.contains("[Cutoff]") })
        pty.resize(width: 40, height: 10)
        #expect(pty.wait { $0.contains("▸ Cutoff") && $0.contains("1.00 kHz") })
        pty.resize(width: 20, height: 4)
        #expect(pty.wait { $0.contains("Window too small") && $0.contains("have 20×4") })
        pty.resize(width: 80, height: 24)
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("Filter response") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
    }

    @Test("when the terminal offers them: synchronised frames and SGR-pixel mouse reports")
    func terminalFeatures() throws {
        let config = TemporaryFolder()
        let pty = try start(config: config)
        #expect(pty.wait { $0.contains("[Cutoff]") })
        let asked = String(decoding: pty.output, as: UTF8.self)
        #expect(asked.contains("\u{1B}[?2026$p"))
        #expect(asked.contains("\u{1B}[?1016$p"))
        #expect(asked.contains("\u{1B}[16t"))
        // Answer as a terminal that knows both modes, with 10 × 20 pixel cells.
        pty.send("\u{1B}[?2026;2$y\u{1B}[?1016;2$y\u{1B}[6;20;10t")
        #expect(pty.wait { _ in String(decoding: pty.output, as: UTF8.self).contains("\u{1B}[?1016h") })
        // A pixel drag on Gain: 50 px down of a travel of 8 rows of 20 px (the drawn knob's).
        let slot = layout.slots[2]
        let px = Int(slot.center.x * 10), py = Int(slot.center.y * 20)
        var gain = referenceKnob(.gain)
        gain.behavior.travelPixels = 160
        gain.pointerDown(KnobPoint(x: Double(px), y: Double(py)), center: KnobPoint(x: slot.center.x * 10, y: slot.center.y * 20), unit: .pixels, at: 0)
        gain.pointerUp(KnobPoint(x: Double(px), y: Double(py + 50)), at: 0.1)
        let mark = pty.output.count
        pty.send("\u{1B}[<0;\(px + 1);\(py + 1)M\u{1B}[<32;\(px + 1);\(py + 51)M\u{1B}[<0;\(px + 1);\(py + 51)m")
        #expect(pty.wait { $0.contains(gain.valueText()) })
        let frames = String(decoding: pty.output[mark...], as: UTF8.self)
        #expect(frames.hasPrefix("\u{1B}[?2026h"))
        #expect(frames.contains("\u{1B}[?2026l"))
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        #expect(pty.wait { !$0.modes.contains(1016) && !$0.alternateScreen })
    }

    @Test("--ascii draws ASCII only; NO_COLOR leaves out every colour code")
    func asciiAndNoColor() throws {
        let config = TemporaryFolder()
        let pty = try start(["panel", "--ascii"], config: config, environment: ["NO_COLOR": "1"])
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("Up/Dn turn") })
        #expect(pty.screen.text.allSatisfy { $0.isASCII })
        // Without --preset the panel starts from the Default preset and names it.
        #expect(pty.screen.text.contains("Preset: Default"))
        let written = String(decoding: pty.output, as: UTF8.self)
        for color in ["[0;36m", "[0;1;96m", "[0;32m", ";90m", ";91m", ";93m"] { #expect(!written.contains(color)) }
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
    }

    @Test("--preset starts from a preset; s saves under a typed name through the store")
    func presetAndSave() throws {
        let config = TemporaryFolder()
        let pty = try start(["panel", "--preset", "Dark"], config: config)
        #expect(pty.wait { $0.contains("Preset: Dark") })
        pty.send("\u{1B}[1;5A")  // Ctrl-↑: a fine step
        #expect(pty.wait { $0.contains("Preset: Dark (modified)") })
        pty.send("s")
        #expect(pty.wait { $0.contains("Save preset as: Dark") })
        pty.send(String(repeating: "\u{7F}", count: 4) + "Darker\r")
        #expect(pty.wait { $0.contains("Preset: Darker") && $0.contains("saved 'Darker'") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        #expect(FileManager.default.fileExists(atPath: config.file("detent/presets/Darker.json")))
    }

    @Test("without a terminal: one clear line on stderr and status 64")
    func notATerminal() throws {
        let config = TemporaryFolder()
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": config.path]) { $1 }
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["panel"], environment: environment, stdin: [])
        #expect(outcome.status.exited == 64)
        #expect(outcome.stderrText == "detent: \(TerminalError.notATerminal(stream: "input"))\n")
        #expect(outcome.stdout.isEmpty)
    }

    @Test("an unknown preset fails before the terminal is touched")
    func unknownPreset() throws {
        let config = TemporaryFolder()
        let pty = try start(["panel", "--preset", "Nope"], config: config)
        let status = pty.waitForExit()
        #expect(status?.exited == 64)
        #expect(pty.wait { $0.contains("detent: no preset named 'Nope'") })
        #expect(!String(decoding: pty.output, as: UTF8.self).contains("\u{1B}[?1049h"))
    }
}

/// Suspend and resume under a real shell's job control, in tmux.
@Suite("detent panel under job control", .serialized)
struct PanelJobControlTests {
    @Test("Ctrl-Z and SIGTSTP hand the terminal back to the shell as found; fg takes it again")
    func suspendAndResume() throws {
        let binary = try BuiltProducts.detent
        let folder = TemporaryFolder()
        let tmux = try TmuxSession(shellIn: folder.path)
        defer { tmux.close() }
        #expect(try tmux.wait { $0.contains("$") })
        try tmux.type("cd \(folder.path); stty -g > before; \(binary) panel")
        try tmux.send("Enter")
        #expect(try tmux.wait { $0.contains("[Cutoff]") })
        #expect(try tmux.format("#{alternate_on}#{mouse_button_flag}#{mouse_sgr_flag}#{cursor_flag}") == "1110")

        func expectHandedBack() throws {
            #expect(try tmux.wait { $0.contains("Stopped") && !$0.contains("[Cutoff]") })
            #expect(try tmux.format("#{alternate_on}#{mouse_button_flag}#{mouse_any_flag}#{cursor_flag}") == "0001")
        }
        func resume() throws {
            try tmux.type("fg")
            try tmux.send("Enter")
            #expect(try tmux.wait { $0.contains("[Cutoff]") })
            #expect(try tmux.format("#{alternate_on}#{mouse_button_flag}#{cursor_flag}") == "110")
        }

        try tmux.send("C-z")
        try expectHandedBack()
        try resume()
        // Raw mode is back: a single key turns the knob, no Enter needed.
        var cutoff = referenceKnob(.cutoff)
        cutoff.press(.increment, at: 0)
        try tmux.type("k")
        #expect(try tmux.wait { $0.contains(cutoff.valueText()) })

        // The same from outside: SIGTSTP to the panel (the shell's child named detent).
        let shell = try #require(Int32(try tmux.format("#{pane_pid}")))
        let panel = try #require(childProcess(of: shell, named: "detent"))
        kill(panel, SIGTSTP)
        try expectHandedBack()
        try resume()

        try tmux.type("q")
        #expect(try tmux.wait { !$0.contains("[Cutoff]") })
        try tmux.type("stty -g > after; echo done-$((40+2))")
        try tmux.send("Enter")
        #expect(try tmux.wait { $0.contains("done-42") })
        #expect(try tmux.format("#{alternate_on}#{mouse_any_flag}#{mouse_button_flag}#{cursor_flag}") == "0001")
        let before = try String(contentsOfFile: folder.file("before"), encoding: .utf8)
        let after = try String(contentsOfFile: folder.file("after"), encoding: .utf8)
        #expect(!before.isEmpty)
        #expect(before == after)
    }
}
