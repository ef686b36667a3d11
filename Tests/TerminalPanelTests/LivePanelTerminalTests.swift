#if canImport(Glibc)
import Glibc
#endif
import DSP
import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// `detent live` on a terminal: the same panel, over a running engine on a private JACK
/// server (dummy driver) that the test starts and stops itself.
extension PanelTerminalTests {
    /// Starts `jackd` with the dummy driver and waits (bounded) until a client can reach it.
    static func startServer(_ name: String) throws -> ChildProcess {
        let server = try ChildProcess("/usr/bin/jackd", ["--no-realtime", "-n", name, "-d", "dummy", "-r", "48000", "-p", "256"])
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let probe = try ChildProcess.run("/usr/bin/jack_lsp",
                                             environment: ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"])
            if probe.status.exited == 0 { return server }
        }
        server.signal(SIGTERM)
        server.wait()
        throw CocoaError(.executableLoad)
    }

    @Test("detent live on a terminal opens the panel over the engine: JACK status, meters, knobs")
    func livePanel() throws {
        try withTemporaryDirectory { config in
            let name = "detent-panel-\(getpid())"
            let server = try Self.startServer(name)
            defer {
                server.signal(SIGTERM)
                server.wait()
            }
            let pty = try start(["live", "--server", name], config: config, width: 90, height: 32)
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
}
