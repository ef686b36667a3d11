import Foundation
import Testing
import TestSupport

extension JackTests {
    /// A service started before its server (at boot, before PipeWire or jackd): it waits for
    /// the server, says so once, and joins when it comes; `--no-reconnect` keeps failing at once.
    @Suite struct ServiceStartTests {
        @Test func aServiceStartedBeforeItsServerWaitsAndJoinsWhenItComes() throws {
            let server = try JackServer()
            server.stop()
            let detent = try LiveProgram(["--service", "--server", server.name, "--no-midi"], environment: [:])
            try detent.waitForMessage("no JACK server '\(server.name)' is running yet; waiting for it, retrying with back-off")
            try detent.waitForMessage("waiting for JACK server '\(server.name)' (2 channels); reading no commands")
            #expect(detent.child.wait(seconds: 0.5) == nil, "it is still running")
            try server.start()
            try detent.waitForMessage("connected to the JACK server '\(server.name)' as 'detent' (48000 Hz, 256 frames)", timeout: 15)
            #expect(detent.messages.filter { $0.contains("waiting for it") }.count == 1, "said once: \(detent.messages)")
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 5)?.exited == 0)
            server.stop()
        }

        @Test func withNoReconnectAServiceWithoutAServerFailsAtOnce() throws {
            let server = try JackServer()
            server.stop()
            let detent = try LiveProgram(["--service", "--server", server.name, "--no-midi", "--no-reconnect"], environment: [:])
            #expect(detent.child.wait(seconds: 10)?.exited == 1)
            #expect(detent.messages == ["detent: no JACK server named '\(server.name)' is running; start it with `jackd -n \(server.name) -d alsa` (or `-d dummy` without a sound card)"])
        }
    }
}
