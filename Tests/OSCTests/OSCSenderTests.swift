import Foundation
import OSC
import Parameters
@testable import Platform
import Testing
import TestSupport

/// Who may edit the chain or name a preset file over OSC: the user Detent runs as, and no one
/// else on the machine. At the Unix socket the kernel vouches for each sender; over UDP a
/// sender's socket, still open, must be this user's.
@Suite("OSC senders")
struct OSCSenderTests {
    typealias Received = OSCServerTests.Received

    static let edit = "add lp2=builtin"
    static let otherUser = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// A UDP client in a process of its own (as `user`'s when `prefix` is setpriv's) that keeps
    /// its socket open, sends `bytes` to `port` and waits for its standard input to close.
    static func holdingSender(port: Int, bytes: [UInt8], prefix: [String] = []) throws -> ChildProcess {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", 0))
            s.sendto(bytes.fromhex(sys.argv[2]), ("127.0.0.1", int(sys.argv[1])))
            print("sent", flush=True)
            sys.stdin.read()
            """
        let arguments = ["/usr/bin/python3", "-c", script, "\(port)", bytes.map { String(format: "%02x", $0) }.joined()]
        return try ChildProcess(prefix.first ?? arguments[0], Array((prefix + arguments).dropFirst()), stdin: .pipe, stdout: .pipe)
    }

    @Test("at the Unix socket, oscsend of this user edits the chain and names preset files; it goes when the server stops")
    func unixSocketOfThisUser() throws {
        let received = Received()
        let server = try OSCServer(port: 0, unixSocket: true, table: LowpassGain.table, log: { _ in }) { request, _, _ in
            received.requests.withLock { $0.append(request) }
            received.arrived.signal()
        }
        let path = try #require(server.unixPath)
        #expect(path == OSCServer.unixPath(port: server.port))
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & 0o777 == 0o600, "only this user may open it")
        for (address, value) in [("/detent/chain", Self.edit), ("/detent/preset/load", "/tmp/mine.json")] {
            let sent = try ChildProcess.run("/usr/bin/oscsend", ["osc.unix://" + path, address, "s", value])
            #expect(sent.status.exited == 0, "\(sent.stderrText)")
            #expect(received.arrived.wait(timeout: .now() + 10) == .success)
        }
        #expect(received.requests.withLock { $0 } == [.chain(Self.edit), .presetLoad("/tmp/mine.json")])
        server.stop()
        #expect(lstat(path, &status) != 0, "the socket's file is removed")
    }

    @Test("over UDP, this user's client that keeps its socket edits the chain")
    func udpClientOfThisUser() throws {
        let received = Received()
        let server = try OSCServerTests.server(received)
        defer { server.stop() }
        let sender = try Self.holdingSender(port: server.port, bytes: OSCBundle.message("/detent/chain", string: Self.edit))
        defer { sender.closeInput() }
        #expect(received.arrived.wait(timeout: .now() + 10) == .success)
        #expect(received.requests.withLock { $0 } == [.chain(Self.edit)])
    }

    @Test("another user of this machine edits nothing and names no file, over UDP or at the Unix socket",
          .enabled(if: InCI.required(getuid() == 0), "needs root to send as another user (CI runs as root)"))
    func anotherUserIsRefused() throws {
        let received = Received()
        // Every refusal logged (no second between lines): the test waits for each.
        let server = try RateLimitedLog.$interval.withValue(.zero) { try OSCServer(port: 0, unixSocket: true, table: LowpassGain.table, log: { line in
            received.lines.withLock { $0.append(line) }
            received.logged.signal()
        }) { request, _, _ in
            received.requests.withLock { $0.append(request) }
            received.arrived.signal()
        } }
        defer { server.stop() }
        // UDP, the socket held open while the server looks its owner up.
        let sender = try Self.holdingSender(port: server.port, bytes: OSCBundle.message("/detent/chain", string: Self.edit),
                                            prefix: Self.otherUser)
        defer { sender.closeInput() }
        #expect(received.logged.wait(timeout: .now() + 10) == .success)
        #expect(received.lines.withLock { $0.last ?? "" }.contains("/detent/chain: taken only from this user"), "\(received.lines.withLock { $0 })")
        // The Unix socket's mode keeps the other user out; opened to all, the kernel's word on
        // the sender still does.
        let path = try #require(server.unixPath)
        let shut = try ChildProcess.run(Self.otherUser[0], Array(Self.otherUser.dropFirst()) + ["/usr/bin/oscsend", "osc.unix://" + path, "/detent/chain", "s", Self.edit])
        #expect(shut.status.exited != 0 || !shut.stderr.isEmpty, "the socket's mode refuses another user")
        #expect(chmod(path, 0o666) == 0)
        _ = try ChildProcess.run(Self.otherUser[0], Array(Self.otherUser.dropFirst()) + ["/usr/bin/oscsend", "osc.unix://" + path, "/detent/preset/load", "s", "/etc/shadow"])
        #expect(received.logged.wait(timeout: .now() + 10) == .success)
        #expect(received.lines.withLock { $0.last ?? "" }.contains("only from this user"), "\(received.lines.withLock { $0 })")
        #expect(received.requests.withLock { $0 }.isEmpty)
    }

    @Test("a string longer than OSC's bound is refused before anything reads it")
    func longStrings() throws {
        let received = Received()
        let server = try OSCServerTests.server(received)
        defer { server.stop() }
        let client = try UDPClient(port: server.port)
        defer { client.close() }
        let long = String(repeating: "x", count: OSCSocket.longestString + 1)
        client.send(OSCBundle.message("/detent/chain", string: "add " + long))
        #expect(received.logged.wait(timeout: .now() + 10) == .success)
        let line = received.lines.withLock { $0.last ?? "" }
        #expect(line.contains("a string of \(long.count + 4) bytes") && line.count < 300, "\(line)")
        #expect(received.requests.withLock { $0 }.isEmpty)
    }

    @Test("the kernel's UDP table is read for sockets on loopback and wildcard addresses, IPv4 and IPv6")
    func socketTable() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
              1: 0100007F:9C40 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 1 2 0000000000000000 0
              2: 00000000:9C41 00000000:0000 07 00000000:00000000 00:00000000 00000000    33        0 1 2 0000000000000000 0
              3: 0101A8C0:9C42 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1 2 0000000000000000 0
            """
        #expect(LocalSender.owners(ofPort: 0x9C40, table: table) == [1000])
        #expect(LocalSender.owners(ofPort: 0x9C41, table: table) == [33])
        #expect(LocalSender.owners(ofPort: 0x9C42, table: table) == [], "192.168.1.1 is not this machine's loopback")
        #expect(LocalSender.isLocal("00000000000000000000000001000000"), "::1")
        #expect(LocalSender.isLocal("0000000000000000FFFF00000100007F"), "::ffff:127.0.0.1")
        #expect(!LocalSender.isLocal("0000000000000000FFFF00000101A8C0"), "::ffff:192.168.1.1")
        #expect(LocalSender.isLocal("00000000000000000000000000000000"), "::")
    }

    @Test("the kernel's TCP table gives the owner of a connection's client end, established and on loopback")
    func connectionTable() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
              0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1
              1: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 2
              2: 0100007F:C351 0100007F:1F90 06 00000000:00000000 00:00000000 00000000    33        0 3
              3: 0101A8C0:C352 0100007F:1F90 01 00000000:00000000 00:00000000 00000000    34        0 4
            """
        #expect(LocalSender.owners(ofTCPPort: 0xC350, connectedTo: 0x1F90, table: table) == [1000])
        #expect(LocalSender.owners(ofTCPPort: 0xC351, connectedTo: 0x1F90, table: table) == [], "a connection that is closing is no one's")
        #expect(LocalSender.owners(ofTCPPort: 0xC352, connectedTo: 0x1F90, table: table) == [], "192.168.1.1 is not this machine's loopback")
        #expect(LocalSender.owners(ofTCPPort: 0xC350, connectedTo: 0x1F91, table: table) == [], "a connection to another port")
    }

    @Test("a loopback TCP connection made by this process is this user's; a port with no connection is no one's")
    func connectionOwner() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } } == 0)
        try #require(listen(listener, 1) == 0)
        try #require(withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } } == 0)
        let serverPort = Int(UInt16(bigEndian: address.sin_port))
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(client >= 0)
        defer { close(client) }
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } } == 0)
        var mine = sockaddr_in()
        var mineLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafeMutablePointer(to: &mine) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &mineLength) } } == 0)
        let clientPort = Int(UInt16(bigEndian: mine.sin_port))
        #expect(LocalSender.isThisUser(tcpPeerPort: clientPort, serverPort: serverPort))
        #expect(!LocalSender.isThisUser(tcpPeerPort: clientPort, serverPort: serverPort == 65_535 ? 1 : serverPort + 1))
    }
}
