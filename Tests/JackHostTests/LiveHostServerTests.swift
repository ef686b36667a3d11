import CJack
import DSP
import Foundation
import JackHost
import Synchronization
import Testing
import Parameters
import TestSupport

extension JackTests {
    /// The host against whatever the server does: absent, killed, shut down, name clashes.
    @Suite struct LiveHostServerTests {
        static func options(_ server: JackServer, _ configure: (inout LiveHostOptions) -> Void = { _ in }) -> LiveHostOptions {
            var options = LiveHostOptions()
            options.server = server.name
            options.smoothing = 0.005
            options.backoff = Backoff(initial: .milliseconds(20), maximum: .milliseconds(200))
            configure(&options)
            return options
        }

        @Test func noServerFailsWithOneLineSayingHowToStartOne() {
            var options = LiveHostOptions()
            options.server = "detent-test-absent-\(getpid())"
            let host = LiveHost(options: options, log: { _ in })
            #expect(throws: LiveHostError.noServer(server: options.server)) { try host.start() }
            #expect(host.clientName == nil)
            host.stop()
        }

        @Test(arguments: [SIGKILL, SIGTERM])
        func survivesTheServerGoingAwayAndComingBack(signal: Int32) throws {
            let server = try JackServer()
            let log = LogLines()
            let host = LiveHost(options: Self.options(server) { $0.autoconnect = true }, log: log.append)
            try host.start()
            defer { host.stop() }
            let name = try #require(host.clientName)

            // A connection made by someone else, to be remembered by name.
            var peer: TestClient? = try TestClient("peer", server: server.name, play: [[0]], midi: [(0, [0xB0, 1, 0])])
            #expect(peer!.connect("peer:out_1", "\(name):in_2") == 0)
            #expect(peer!.connect("peer:midi_out", "\(name):midi_in") == 0)
            let byRule = Set((1...2).flatMap { c in
                [PortConnection(port: "in_\(c)", peer: "system:capture_\(c)"),
                 PortConnection(port: "out_\(c)", peer: "system:playback_\(c)")]
            })
            let manual: Set = [PortConnection(port: "in_2", peer: "peer:out_1"),
                               PortConnection(port: "midi_in", peer: "peer:midi_out")]
            try waitUntil("the host remembers the connections") { host.rememberedConnections == byRule.union(manual) }

            host.setStamped([.cutoff: 500, .gain: -9])
            try waitUntil("the values are reached") { host.status().values[.cutoff] == 500 }
            peer?.close()  // (libjack must let go before the server dies)
            peer = nil
            server.kill(signal: signal)
            try waitUntil("the host says the server stopped") {
                log.contains("the JACK server '\(server.name)' stopped; keeping the current values")
            }
            #expect(!host.status().isConnected)
            #expect(host.target(.cutoff) == 500)
            // A change while the server is away is kept too.
            host.setStamped([.resonance: 3])

            try server.start()
            do {
                try waitUntil("the host says it reconnected", timeout: 20) {
                    log.contains("reconnected to the JACK server '\(server.name)' as '\(name)'")
                }
            } catch where log.contains("did not release the lost client") {
                // libjack's close of a client whose server died can deadlock (jackaudio/jack2#395);
                // no client can open in this process after that, and the host says so and waits.
                withKnownIssue("libjack deadlocked closing the lost client", isIntermittent: true) { throw error }
                return
            }
            let status = host.status()
            #expect(status.reconnects == 1)
            #expect(status.client == name)

            let observer = try TestClient("observer", server: server.name)
            #expect(observer.ports(matching: "^\(name):").sorted() == ["in_1", "in_2", "midi_in", "midi_out", "out_1", "out_2"].map { "\(name):\($0)" })
            for c in byRule {
                let ours = "\(name):\(c.port)"
                try waitUntil("\(c) is made again") { observer.connections(of: ours).contains(c.peer) }
            }
            // The peer returns: its connection is made again as soon as its port appears.
            let returned = try TestClient("peer", server: server.name, play: [[0]])
            try waitUntil("the peer's connection is made again") {
                observer.connections(of: "\(name):in_2") == ["peer:out_1", "system:capture_2"]
            }
            // Gain travels as an amplitude: back in decibels it is −9 up to rounding.
            let gain = LowpassGain.table[.gain].value(fromEngine: LowpassGain.table[.gain].engineValue(-9))
            try waitUntil("the values are kept") {
                let values = host.status().values
                return values[.cutoff] == 500 && values[.gain] == gain && values[.resonance] == 3
            }
            returned.close()
            observer.close()
            host.stop()
            server.stop()
        }

        @Test func withoutReconnectTheHostStopsWithStatusOne() throws {
            let server = try JackServer()
            let log = LogLines()
            let terminated = Atomic<Int32>(-1)
            let host = LiveHost(options: Self.options(server) { $0.reconnect = false }, log: log.append,
                                onTerminate: { terminated.store($0, ordering: .relaxed) })
            try host.start()
            server.kill()
            try waitUntil("the host gives up") { terminated.load(ordering: .relaxed) == 1 }
            #expect(host.exitStatus == 1)
            #expect(log.contains("stopped; exiting (--no-reconnect)"))
            try server.start()
            host.stop()
            #expect(host.clientName == nil)
            server.stop()
        }

        @Test func aTakenNameFailsWithExactNameAndGetsJacksSuffixOtherwise() throws {
            let server = try JackServer()
            let first = LiveHost(options: Self.options(server) { $0.name = "twin" }, log: { _ in })
            try first.start()
            #expect(first.clientName == "twin")

            let exact = LiveHost(options: Self.options(server) { $0.name = "twin"; $0.exactName = true }, log: { _ in })
            #expect(throws: LiveHostError.nameTaken("twin")) { try exact.start() }
            exact.stop()

            let second = LiveHost(options: Self.options(server) { $0.name = "twin" }, log: { _ in })
            try second.start()
            let suffixed = try #require(second.clientName)
            #expect(suffixed != "twin" && suffixed.hasPrefix("twin"))
            second.stop()
            first.stop()
            server.stop()
        }

        @Test func portsFollowTheChannelCount() throws {
            let server = try JackServer()
            let host = LiveHost(options: Self.options(server) { $0.channels = 5 }, log: { _ in })
            try host.start()
            defer { host.stop() }
            let observer = try TestClient("observer", server: server.name)
            let ports = observer.ports(matching: "^detent:")
            #expect(ports.filter { $0.hasPrefix("detent:in_") }.count == 5)
            #expect(ports.filter { $0.hasPrefix("detent:out_") }.count == 5)
            #expect(ports.contains("detent:in_5") && ports.contains("detent:out_5"))
            #expect(ports.count == 12, "and a MIDI input and output")
            host.stop()
            #expect(observer.ports(matching: "^detent:").isEmpty)
            observer.close()
            server.stop()
        }
    }
}

/// `detent live --osc`: liblo's `oscsend` turns a knob; a subscriber follows a typed change.
@Suite("Live OSC")
struct LiveOSCTests {
    @Test("oscsend sets a value that get reads back; subscribers get typed changes")
    func oscEndToEnd() throws {
        let server = try JackServer()
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server.name
        let detent = try LiveProgram(["--headless", "--no-midi", "--osc", "0"], environment: environment)
        try detent.waitForMessage("OSC on UDP 127.0.0.1:")
        let line = try #require(detent.messages.first { $0.contains("OSC on UDP") })
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        let sent = try ChildProcess.run("/usr/bin/oscsend", ["127.0.0.1", "\(port)", "/detent/param/cutoff", "f", "2500"])
        #expect(sent.status.exited == 0)
        try waitUntil("the OSC change lands") { (try? detent.ask("get cutoff")) == "cutoff=2.50 kHz" }
        let client = try UDPClient(port: port)
        defer { client.close() }
        client.send(OSCBytes.message("/detent/subscribe"))
        var seen: [[UInt8]] = []
        for _ in 0..<3 { seen.append(try #require(client.receive(), "the current values arrive")) }
        #expect(seen.contains(OSCBytes.message("/detent/param/cutoff", float: 2500)))
        #expect(try detent.ask("set gain -3").hasPrefix("gain="))
        // A value that changed just before the subscription may come again; the gain follows.
        let gain = OSCBytes.message("/detent/param/gain", float: -3)
        var arrived = false
        for _ in 0..<4 where !arrived {
            let message = try #require(client.receive(), "the typed change arrives")
            arrived = message == gain
            #expect(arrived || message == OSCBytes.message("/detent/param/cutoff", float: 2500))
        }
        #expect(arrived)
        #expect(detent.finish() == 0)
    }
}
