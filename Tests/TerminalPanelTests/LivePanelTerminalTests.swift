import AudioEngine
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

    @Test("detent live with its panel ends on SIGINT, SIGTERM and SIGHUP as headless live does: client closed, status 0",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func livePanelQuitsOnSignals(signal: Int32) throws {
        let config = TemporaryFolder()
        let server = try JackServer(period: 256, sampleRate: 48_000)
        defer { server.stop() }
        let pty = try start(["live", "--server", server.name], config: config, width: 90, height: 32)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("[Cutoff]") && $0.contains("48 kHz") })
        kill(pty.pid, signal)
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
    }

    @Test("detent live --plugin on a terminal: the plug-in's name, its knobs and its meters")
    func livePluginPanel() throws {
        let config = TemporaryFolder()
        let server = try JackServer(period: 256, sampleRate: 48_000)
        defer { server.stop() }
        let pty = try start(["live", "--server", server.name, "--plugin", "http://gareus.org/oss/lv2/dpl#stereo"],
                            config: config, width: 100, height: 32)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("Digital Peak Limiter") && $0.contains("48 kHz") })
        // The outputs section: the limiter's level meter and its latency, with their names.
        #expect(pty.wait { $0.contains("Signal Latency") && $0.contains("Signal Level") })
        #expect(pty.screen.text.contains("64"), "the latency in frames")
        #expect(!pty.screen.text.contains("Filter response"), "no response curve for a plug-in")
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
    }
}
