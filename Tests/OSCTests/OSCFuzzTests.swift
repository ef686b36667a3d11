import Foundation
import OSC
import Parameters
import Testing
import TestSupport

/// Hostile OSC, replayed from fixed seeds: every packet is refused in one short line or taken,
/// the server never stops answering, and nothing taken is out of its parameter's range.
@Suite("OSC fuzzing")
struct OSCFuzzTests {
    static let addresses = ["/detent/param/cutoff", "/detent/param/cutoff/norm", "/detent/param/", "/detent/param/gain/norm/x",
                            "/detent/get/resonance", "/detent/get/", "/detent/preset/load", "/detent/chain", "/detent/status",
                            "/detent/slot/restart", "/detent/midi/learn", "/detent/subscribe", "/detent//", "/detent/", "/",
                            "", "/other", "/detent/param/cutoff\u{0}x", "/détent/param/cutoff"]

    static func argument(_ random: inout SplitMix64) -> OSCArgument {
        switch random.next() % 7 {
        case 0: .float(random.pick([0, -1, 1e30, .nan, .infinity, -.infinity, 800, 0.5]))
        case 1: .double(random.pick([0, 1e300, .nan, -0.0, 20_000.5]))
        case 2: .int32(random.pick([0, -1, .max, .min, 74]))
        case 3: .string(random.pick(["", ":", "::", "json", "add x=builtin at input>:", "connect input :", "../..", "/etc/passwd",
                                     String(repeating: "a", count: Int(random.next() % 300)), "cutoff", "\u{1b}[2J"]))
        default: .other(random.pick(["b", "T", "N", "m", "h"]))
        }
    }

    @Test("the router takes or refuses 5,000 random messages, each refusal one line, each value in range")
    func router() {
        var random = SplitMix64(seed: 46)
        let table = LowpassGain.table
        for _ in 0..<5_000 {
            let path = random.pick(Self.addresses) + (random.chance(0.2) ? random.pick(["cutoff", "/norm", "x", ":"]) : "")
            let arguments = (0..<Int(random.next() % 4)).map { _ in Self.argument(&random) }
            switch OSCRouter.route(path, arguments, table: table, fromThisUser: random.chance(0.5)) {
            case .failure(let rejection):
                #expect(!rejection.description.contains("\n") && !rejection.description.isEmpty)
            case .success(.set(let index, let value)):
                #expect(table[index].range.contains(value), "\(path) \(arguments)")
            case .success(.setPosition(_, let position)):
                #expect((0...1).contains(position))
            case .success: break
            }
        }
    }

    /// A packet: a message of random parts, a bundle of them (nested, truncated, with sizes
    /// that lie), or bytes at random.
    static func packet(_ random: inout SplitMix64, depth: Int = 0) -> [UInt8] {
        switch random.next() % 6 {
        case 0:
            return (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1 where depth < 10:
            var bundle = OSCBundle.bundle((0..<Int(random.next() % 3)).map { _ in packet(&random, depth: depth + 1) })
            if random.chance(0.3), bundle.count > 19 { bundle[19] = UInt8(truncatingIfNeeded: random.next()) }
            return bundle
        case 2:
            let message = OSCBundle.message(random.pick(addresses), string: random.pick(["add x=builtin", "json", ""]))
            return Array(message.prefix(Int(random.next() % UInt64(message.count + 1))))
        default:
            let path = OSCBytes.padded(random.pick(addresses))
            let tags = random.pick([",", ",f", ",s", ",ff", ",i", ",fs", ",b", ",z"])
            var bytes = path + OSCBytes.padded(tags)
            for _ in 0..<Int(random.next() % 3) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: random.next()).bigEndian) { bytes += $0 } }
            return bytes
        }
    }

    @Test("400 hostile packets at a real socket: the server keeps answering, its log lines stay short")
    func socket() throws {
        let received = OSCServerTests.Received()
        let server = try OSCServerTests.server(received, answer: true)
        defer { server.stop() }
        let client = try UDPClient(port: server.port)
        defer { client.close() }
        var random = SplitMix64(seed: 4_600)
        for _ in 0..<400 { client.send(Self.packet(&random)) }
        client.send(OSCBytes.message("/detent/status"))
        // The answers to any /detent/status (or get) sent at random come first; the last
        // datagram is the answer to the status sent last.
        var last: [UInt8]?
        while let answer = client.receive(timeoutMilliseconds: 2_000) { last = answer }
        #expect(last == OSCBundle.message("/detent/status", string: "server test, xruns 0"), "the server still answers")
        #expect(received.lines.withLock { $0 }.allSatisfy { $0.count < 400 && !$0.contains("\n") })
    }
}
