import Foundation
import Parameters
import Remote
import Synchronization
import Testing
import TestSupport

/// The server on a real socket: liblo's `oscsend` as the client that sets, and a UDP socket of
/// the test's own for what needs an answer (get, subscribe), since `oscsend` does not listen.
@Suite("OSC server")
struct OSCServerTests {
    /// What the server handed on, and a signal for each.
    final class Received: Sendable {
        let requests = Mutex<[OSCRequest]>([])
        let lines = Mutex<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        let logged = DispatchSemaphore(value: 0)
    }

    static func server(_ received: Received, answer: Bool = false) throws -> OSCServer {
        try OSCServer(port: 0, table: LowpassGain.table, log: { line in
            received.lines.withLock { $0.append(line) }
            received.logged.signal()
        }) { request, peer, server in
            received.requests.withLock { $0.append(request) }
            if answer, case .get(let index) = request { server.send([(index, 1234)], to: peer) }
            if answer, case .subscribe = request { server.send([(.gain, -6)], to: peer) }
            received.arrived.signal()
        }
    }

    @Test("oscsend sets a value; a bad message is logged and changes nothing")
    func oscsend() throws {
        let received = Received()
        let server = try Self.server(received)
        defer { server.stop() }
        let sent = try ChildProcess.run("/usr/bin/oscsend", ["127.0.0.1", "\(server.port)", "/detent/param/cutoff", "f", "2500"])
        #expect(sent.status.exited == 0)
        #expect(received.arrived.wait(timeout: .now() + 10) == .success)
        #expect(received.requests.withLock { $0 } == [.set(.cutoff, 2500)])
        _ = try ChildProcess.run("/usr/bin/oscsend", ["127.0.0.1", "\(server.port)", "/detent/param/cutoff", "f", "99999"])
        #expect(received.logged.wait(timeout: .now() + 10) == .success)
        #expect(received.lines.withLock { $0.first?.contains("outside") } == true)
        #expect(received.requests.withLock { $0.count } == 1)
    }

    @Test("get is answered to the sender; subscribe starts feedback; malformed packets are logged")
    func answers() throws {
        let received = Received()
        let server = try Self.server(received, answer: true)
        defer { server.stop() }
        let client = try UDPClient(port: server.port)
        defer { client.close() }
        client.send(OSCBytes.message("/detent/get/cutoff"))
        let answer = try #require(client.receive())
        #expect(answer == OSCBytes.message("/detent/param/cutoff", float: 1234))
        client.send(OSCBytes.message("/detent/subscribe"))
        #expect(try #require(client.receive()) == OSCBytes.message("/detent/param/gain", float: -6))
        client.send([0x2F, 0x64, 0x00])  // "/d" and no type tags: not a message
        #expect(received.logged.wait(timeout: .now() + 10) == .success)
        #expect(received.lines.withLock { $0.first?.contains("malformed") } == true)
    }

    @Test("an address that is not one is refused in one line")
    func badBind() {
        #expect(throws: OSCServerError.self) {
            try OSCServer(port: 0, bind: "localhost!", table: LowpassGain.table, log: { _ in }) { _, _, _ in }
        }
    }
}
