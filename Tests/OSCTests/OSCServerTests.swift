import Foundation
import Parameters
import OSC
import Platform
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

    /// A server that logs every refusal (no second between lines: each test waits for each).
    static func server(_ received: Received, answer: Bool = false, bind: String = "127.0.0.1") throws -> OSCServer {
        try RateLimitedLog.$interval.withValue(.zero) { try OSCServer(port: 0, bind: bind, table: LowpassGain.table, log: { line in
            received.lines.withLock { $0.append(line) }
            received.logged.signal()
        }) { request, peer, server in
            received.requests.withLock { $0.append(request) }
            if answer, case .get(let index) = request { server.send([(index, 1234)], to: peer) }
            if answer, case .subscribe = request { server.send([(.gain, -6)], to: peer) }
            if answer, case .status = request { server.send(OSCMessage("/detent/status", [.string("server test, xruns 0")]), to: peer) }
            received.arrived.signal()
        } }
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

    @Test("every message of a bundle is handled in order, nested bundles too, whatever the time tag")
    func bundles() throws {
        let received = Received()
        let server = try Self.server(received, answer: true)
        defer { server.stop() }
        let client = try UDPClient(port: server.port)
        defer { client.close() }
        // A time tag far in the future is still "immediately"; an empty bundle is nothing.
        client.send(OSCBundle.bundle([
            OSCBytes.message("/detent/param/cutoff", float: 300),
            OSCBundle.bundle([
                OSCBytes.message("/detent/param/gain", float: -12),
                OSCBundle.bundle([OSCBytes.message("/detent/param/cutoff/norm", float: 0.25)]),
                OSCBundle.bundle([]),
            ], timeTag: 0xFFFF_FFFF_0000_0000),
            OSCBytes.message("/detent/get/cutoff"),
            OSCBundle.message("/detent/preset/load", string: "Dark"),
        ]))
        #expect(try #require(client.receive(), "get, the bundle's fourth message, is answered")
            == OSCBytes.message("/detent/param/cutoff", float: 1234))
        try waitUntil("the five requests arrive") { received.requests.withLock { $0.count } == 5 }
        #expect(received.requests.withLock { $0 } == [
            .set(.cutoff, 300), .set(.gain, -12), .setPosition(.cutoff, 0.25), .get(.cutoff), .presetLoad("Dark"),
        ])
        // In a bundle as alone: a bad message is logged and the others are handled.
        client.send(OSCBundle.bundle([OSCBytes.message("/detent/param/volume", float: 1), OSCBytes.message("/detent/reset")]))
        #expect(received.logged.wait(timeout: .now() + 10) == .success)
        #expect(received.lines.withLock { $0.last?.contains("no parameter 'volume'") } == true)
        try waitUntil("the reset arrives") { received.requests.withLock { $0.last } == .reset }
    }

    @Test("a malformed bundle, or one nested too deep, is logged and changes nothing")
    func badBundles() throws {
        let received = Received()
        let server = try Self.server(received)
        defer { server.stop() }
        let client = try UDPClient(port: server.port)
        defer { client.close() }
        var deep = OSCBytes.message("/detent/reset")
        for _ in 0...OSCSocket.deepestBundle { deep = OSCBundle.bundle([deep]) }
        var overlong = OSCBundle.bundle([OSCBytes.message("/detent/reset")])
        overlong[19] += 4  // the element's size runs past the packet's end
        let truncated = Array(OSCBundle.bundle([OSCBytes.message("/detent/reset"), [0x2F, 0x64, 0, 0]]))
        for (bytes, reason) in [(deep, "nested deeper than \(OSCSocket.deepestBundle)"), (overlong, "malformed bundle"),
                                (truncated, "malformed message in a bundle"), (Array("#bundle".utf8), "malformed bundle")] {
            client.send(bytes)
            #expect(received.logged.wait(timeout: .now() + 10) == .success)
            #expect(received.lines.withLock { $0.last?.contains(reason) } == true, "\(received.lines.withLock { $0 })")
        }
        #expect(received.requests.withLock { $0 }.isEmpty, "nothing of a bad bundle is handled, not even its good messages")
    }

    @Test("oscsend from another address may load a preset by name, never by path",
          .enabled(if: OSCBundle.networkAddress != nil, "no IPv4 address but the loopback"))
    func presetPathFromNetwork() throws {
        let address = try #require(OSCBundle.networkAddress)
        let received = Received()
        let server = try Self.server(received, bind: "0.0.0.0")
        defer { server.stop() }
        // Sent to this machine's network address, the datagram comes from it: not loopback.
        for path in ["/etc/passwd", "../../home/someone/secret", "mine.json"] {
            _ = try ChildProcess.run("/usr/bin/oscsend", [address, "\(server.port)", "/detent/preset/load", "s", path])
            #expect(received.logged.wait(timeout: .now() + 10) == .success)
            let line = received.lines.withLock { $0.last } ?? ""
            #expect(line.contains("OSC from \(address):") && line.contains("only from this user on this machine") && line.hasSuffix("ignored"), "\(line)")
        }
        _ = try ChildProcess.run("/usr/bin/oscsend", [address, "\(server.port)", "/detent/preset/load", "s", "Dark"])
        #expect(received.arrived.wait(timeout: .now() + 10) == .success)
        #expect(received.requests.withLock { $0 } == [.presetLoad("Dark")])
    }

    @Test("status is answered to the sender as one string")
    func status() throws {
        let received = Received()
        let server = try Self.server(received, answer: true)
        defer { server.stop() }
        let client = try UDPClient(port: server.port)
        defer { client.close() }
        client.send(OSCBytes.message("/detent/status"))
        #expect(try #require(client.receive()) == OSCBundle.message("/detent/status", string: "server test, xruns 0"))
        client.send(OSCBundle.message("/detent/status", string: "json"))
        _ = try #require(client.receive())
        #expect(received.requests.withLock { $0 } == [.status(json: false), .status(json: true)])
    }

    @Test("an address that is not one is refused in one line")
    func badBind() {
        #expect(throws: OSCServerError.self) {
            try OSCServer(port: 0, bind: "localhost!", table: LowpassGain.table, log: { _ in }) { _, _, _ in }
        }
    }
}

/// OSC bundles and string messages as bytes, which `oscsend` cannot send and the tests' own
/// `OSCBytes` does not write; and this machine's address on a network, to send from.
enum OSCBundle {
    /// `#bundle`, the time tag (1: "immediately"), then each element after its size.
    static func bundle(_ elements: [[UInt8]], timeTag: UInt64 = 1) -> [UInt8] {
        var bytes = OSCBytes.padded("#bundle")
        withUnsafeBytes(of: timeTag.bigEndian) { bytes += $0 }
        for element in elements {
            withUnsafeBytes(of: UInt32(element.count).bigEndian) { bytes += $0 }
            bytes += element
        }
        return bytes
    }

    /// A message with one string argument.
    static func message(_ path: String, string: String) -> [UInt8] {
        OSCBytes.padded(path) + OSCBytes.padded(",s") + OSCBytes.padded(string)
    }

    /// The first IPv4 address of an interface that is up and not the loopback, or nil.
    static let networkAddress: String? = {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(current.pointee.ifa_flags)
            guard let address = current.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            else { continue }
            return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }()
}
