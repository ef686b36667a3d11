import Foundation
import Testing
import TestSupport

extension JackTests {
    /// SIGTERM ends `detent live` within its deadline in every state its server can leave it
    /// in: a server frozen (SIGSTOP: libjack's calls wait for answers that never come, as on a
    /// wedged server or a close deadlocked in libjack), or killed, with the command input
    /// open, closed, or never read (`--service`).
    @Suite struct StopDeadlineTests {
        enum Input: String, CaseIterable { case open, closed, service }

        @Test("SIGTERM ends it with status 0 while its server is frozen", arguments: Input.allCases)
        func frozenServer(input: Input) throws {
            let server = try JackServer()
            let detent = try LiveProgram(on: server, input == .service ? ["--service"] : [])
            server.freeze()
            // The end of the input, read or not, after the freeze: a stop it starts waits too.
            if input != .open { detent.child.closeInput() }
            defer {
                server.thaw()
                server.stop()
            }
            // Frozen mid-cycle or between: the next cycle never comes.
            #expect(detent.child.signal(SIGTERM))
            let status = try #require(detent.child.wait(seconds: 5), "SIGTERM did not end it: \(detent.messages)")
            #expect(status.exited == 0)
            #expect(detent.messages.last == "detent: the JACK server did not answer within 800 ms of the signal; "
                    + "quitting without closing the client", "\(detent.messages)")
        }

        @Test("SIGTERM ends it with status 0 after its server was killed", arguments: [Input.open, .service])
        func killedServer(input: Input) throws {
            let server = try JackServer()
            let detent = try LiveProgram(on: server, input == .service ? ["--service"] : [])
            if input == .service { detent.child.closeInput() }
            server.kill(signal: SIGKILL)
            try detent.waitForMessage("the JACK server '\(server.name)' stopped")
            #expect(detent.child.signal(SIGTERM))
            let status = try #require(detent.child.wait(seconds: 5), "SIGTERM did not end it: \(detent.messages)")
            #expect(status.exited == 0)
        }
    }
}
