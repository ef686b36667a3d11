import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// `detent live` on a terminal, editing its chain while it runs: `A` adds a slot after the
/// focused knob's, `>` moves it, `X` removes it (after a y/n), and the tabs, the knobs and the
/// header follow each edit.
extension PanelTerminalTests {
    @Test("detent live's panel adds, moves and removes chain slots while the engine runs")
    func liveChainEdits() throws {
        let config = TemporaryFolder()
        let server = try JackServer(period: 256, sampleRate: 48_000)
        defer { server.stop() }
        let pty = try start(["live", "--server", server.name, "--plugin", "lp=builtin", "--plugin", "drive=http://drobilla.net/plugins/mda/Overdrive"],
                            config: config, width: 100, height: 32)
        let before = pty.initialSettings
        #expect(pty.wait { $0.line(1).hasPrefix(" [lp]  drive") && $0.contains("48 kHz") })
        // A after the first slot: a prompt, then a third slot between the two.
        pty.send("A")
        #expect(pty.wait { $0.contains("Add at 2 (plug-in, builtin, NAME=plug-in): ") })
        pty.send("tone=builtin\r")
        #expect(pty.wait { $0.line(1).hasPrefix(" [lp]  tone   drive") && $0.contains("chain: lp → tone → drive") })
        // Focus moves to the new slot; > moves it after drive.
        pty.send("}")
        #expect(pty.wait { $0.line(1).hasPrefix("  lp  [tone]  drive") })
        pty.send(">")
        #expect(pty.wait { $0.line(1).hasPrefix("  lp   drive  [tone]") && $0.contains("chain: lp → drive → tone") })
        // X asks, n keeps it, X and y remove it.
        pty.send("X")
        #expect(pty.wait { $0.contains("Remove slot tone from the chain? (y/n)") })
        pty.send("n")
        #expect(pty.wait { $0.contains("tone stays") })
        pty.send("X")
        pty.send("y")
        #expect(pty.wait { $0.line(1).hasPrefix(" [lp]  drive") && $0.contains("chain: lp → drive") && !$0.line(1).contains("tone") })
        // A bad plug-in: one line, the chain unchanged. (The first search reads every installed
        // plug-in's description: on a busy machine that takes a while.)
        pty.send("Anothing-like-this\r")
        #expect(pty.wait(seconds: 90) { $0.contains("no installed plug-in is called 'nothing-like-this'") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
    }
}
