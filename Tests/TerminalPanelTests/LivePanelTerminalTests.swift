import DSP
import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// `detent live` on a terminal: the same panel, over a running engine on a private JACK
/// server (dummy driver, ``JackServer``) that the test starts and stops itself.
extension PanelTerminalTests {
    @Test("detent live on a terminal opens the panel over the engine: JACK status, meters, knobs")
    func livePanel() throws {
        let config = TemporaryFolder()
        let server = try JackServer(period: 256, sampleRate: 48_000)
        defer { server.stop() }
        let pty = try start(["live", "--server", server.name], config: config, width: 90, height: 32)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("48 kHz") && $0.contains("256 frames") })
        #expect(pty.screen.text.contains("Out L") && pty.screen.text.contains("Out R"))
        #expect(pty.screen.text.contains("Preset: Default"))

        var cutoff = referenceKnob(.cutoff)
        cutoff.press(.increment, at: 0)
        pty.send("\u{1B}[A")
        #expect(pty.wait { $0.contains(cutoff.valueText()) && $0.contains("(modified)") })

        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
    }
}
