import CJack
import AudioEngine
import Foundation
import Live
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

        /// Run as a program, as users run it: one process, one client. Several clients of one
        /// process across a server's death share libjack's per-process state, and libjack
        /// (1.9.21) then sometimes blocks an open for ever or crashes in a close; that is the
        /// library, not the host, and no user's `detent live` has a second client.
        @Test(arguments: [SIGKILL, SIGTERM])
        func survivesTheServerGoingAwayAndComingBack(signal: Int32) throws {
            let server = try JackServer()
            let detent = try LiveProgram(["--server", server.name, "--autoconnect", "--smoothing", "5",
                                          "--set", "cutoff=500", "--set", "gain=-9"],
                                         environment: ProcessInfo.processInfo.environment)
            try detent.waitForMessage("'detent' on JACK server '\(server.name)'")

            // A connection made by someone else, to be remembered by name.
            var peer: TestClient? = try TestClient("peer", server: server.name, play: [[0]], midi: [(0, [0xB0, 1, 0])])
            try waitUntil("the client is active") { peer!.connect("peer:out_1", "detent:in_2") == 0 }
            #expect(peer!.connect("peer:midi_out", "detent:midi_in") == 0)
            let byRule = ["in_1": "system:capture_1", "in_2": "system:capture_2",
                          "out_1": "system:playback_1", "out_2": "system:playback_2"]
            for (port, other) in byRule {
                try waitUntil("detent:\(port) is connected to \(other)") { peer!.connections(of: "detent:\(port)").contains(other) }
            }
            let values = try detent.ask("params")
            #expect(values.contains("cutoff=500") && values.contains("gain=-9.0 dB"))
            // The host remembers the peer's connections from the graph's callbacks: wait until
            // it has (no other sign tells when), then the peer leaves before the server dies, so
            // that nothing of this process's libjack outlives the server.
            try waitUntil("the host remembers the peer's connections") {
                (try? detent.ask("status")).map { $0.contains("connections 6") && !$0.contains("remembered") } == true
            }
            peer?.close()
            peer = nil
            // Live, the peer's two are gone; remembered, they wait for it to come back.
            try waitUntil("status tells live connections from remembered ones") {
                (try? detent.ask("status"))?.contains("connections 4, remembered 6") == true
            }
            server.kill(signal: signal)
            try detent.waitForMessage("the JACK server '\(server.name)' stopped; keeping the current values")
            #expect(try detent.ask("status").contains("disconnected"))
            // A change while the server is away is kept too.
            _ = try detent.ask("set resonance 3")

            try server.start()
            do {
                try detent.waitForMessage("reconnected to the JACK server '\(server.name)' as 'detent'", timeout: 20)
            } catch where detent.libjackCloseIsStuck {
                // libjack's close of a client whose server died can deadlock (jackaudio/jack2#395):
                // its close thread never returns, and no client can open in that process after
                // that. That alone is excused; the host must still keep its values and quit.
                withKnownIssue("libjack deadlocked closing the lost client", isIntermittent: true) { throw error }
                let kept = try detent.ask("params")
                #expect(kept.contains("cutoff=500") && kept.contains("gain=-9.0 dB") && kept.contains("resonance=3.00"))
                #expect(detent.child.signal(SIGTERM))
                #expect(detent.child.wait(seconds: 5)?.exited == 0, "SIGTERM ends it with the close stuck")
                return
            } catch {
                Issue.record("where detent's threads were:\n\(detent.threadStacks)")
                throw error
            }
            #expect(try detent.ask("status").contains("reconnects 1"))

            let observer = try TestClient("observer", server: server.name)
            #expect(observer.ports(matching: "^detent:").sorted() == ["in_1", "in_2", "midi_in", "midi_out", "out_1", "out_2"].map { "detent:\($0)" })
            for (port, other) in byRule {
                try waitUntil("detent:\(port) is connected to \(other) again") { observer.connections(of: "detent:\(port)").contains(other) }
            }
            // The peer returns: its connections are made again as soon as its ports appear.
            let returned = try TestClient("peer", server: server.name, play: [[0]], midi: [(0, [0xB0, 1, 0])])
            try waitUntil("the peer's connections are made again") {
                observer.connections(of: "detent:in_2") == ["peer:out_1", "system:capture_2"]
                    && observer.connections(of: "detent:midi_in") == ["peer:midi_out"]
            }
            let after = try detent.ask("params")
            #expect(after.contains("cutoff=500") && after.contains("gain=-9.0 dB") && after.contains("resonance=3.00"))
            returned.close()
            observer.close()
            #expect(detent.finish() == 0)
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

        /// The ports carry the names and order patchbays show (JACK metadata), read back with
        /// JACK's own `jack_property`.
        ///
        /// jack2 keeps metadata in one database per user (`/dev/shm/jack_db-UID`) for every
        /// server on the machine, keyed by port UUIDs that each server numbers alike from its
        /// first port: other tests' hosts, on servers of their own, write their ports' names
        /// over these. So the server, Detent and `jack_property` run in a mount namespace with a
        /// /dev/shm of their own (root, as CI runs; outside CI it is skipped without).
        static let metadataScript = #"""
            set -eu
            mount -t tmpfs tmpfs /dev/shm
            jackd --no-realtime -n metadata -d dummy -r 48000 -p 256 > /dev/null 2>&1 &
            trap 'kill $(jobs -p) 2> /dev/null; wait' EXIT
            export JACK_DEFAULT_SERVER=metadata JACK_NO_START_SERVER=1
            jack_wait -w -t 10 > /dev/null
            fifo=$(mktemp -u) && mkfifo "$fifo"
            "$1" live --headless --exact-name --channels "$2" < "$fifo" 2> /dev/null &
            exec 3> "$fifo"
            timeout 20 sh -c 'until jack_lsp | grep -q "^detent:midi_out$"; do sleep 0.05; done'
            shift 2
            for port in "$@"; do
                echo "port $port"
                jack_property -p -l "detent:$port"
            done
            """#

        @Test(.enabled(if: InCI.required(getuid() == 0), "a /dev/shm of its own needs root"),
              arguments: [(2, ["Input L", "Input R", "Output L", "Output R"]), (3, ["Input 1", "Input 2", "Input 3", "Output 1", "Output 2", "Output 3"])])
        func portsHavePrettyNamesInOrder(channels: Int, audio: [String]) throws {
            let folder = TemporaryFolder()
            let script = folder.write("metadata.sh", text: Self.metadataScript)
            let ports = (1...channels).map { "in_\($0)" } + (1...channels).map { "out_\($0)" } + ["midi_in", "midi_out"]
            let run = try ChildProcess.run("/usr/bin/timeout", ["60", "unshare", "--mount", "bash", script, try BuiltProducts.detent,
                                                                "\(channels)"] + ports)
            #expect(run.status.exited == 0, "\(run.stderrText)")
            // Each port's lines, after its "port NAME" line.
            var listed: [String: [String]] = [:], current = ""
            for line in run.stdoutText.split(separator: "\n").map(String.init) {
                if line.hasPrefix("port ") { current = String(line.dropFirst(5)) } else { listed[current, default: []].append(line) }
            }
            for (order, (port, pretty)) in zip(ports, audio + ["MIDI In", "MIDI Out (controller feedback)"]).enumerated() {
                let expected = ["key: http://jackaudio.org/metadata/order value: \(order) type: http://www.w3.org/2001/XMLSchema#integer",
                                "key: http://jackaudio.org/metadata/pretty-name value: \(pretty)"]
                #expect((listed[port] ?? []).sorted() == expected, "\(port): \(listed[port] ?? [])")
            }
        }

        /// Each output reports its own input's capture latency (JACK's default would give
        /// every output the largest of all inputs').
        @Test func latencyIsReportedPerChannel() throws {
            let server = try JackServer()
            let host = LiveHost(options: Self.options(server), log: { _ in })
            try host.start()
            defer { host.stop() }
            let name = try #require(host.clientName)
            let source = try TestClient("source", server: server.name, play: [[0], [0]], captureLatency: [64, 512])
            #expect(source.connect("source:out_1", "\(name):in_1") == 0)
            #expect(source.connect("source:out_2", "\(name):in_2") == 0)
            var range = jack_latency_range_t()
            for (port, frames) in [("out_1", UInt32(64)), ("out_2", UInt32(512))] {
                let ours = try #require(jack_port_by_name(source.client, "\(name):\(port)"))
                try waitUntil("\(port) reports \(frames) frames of capture latency") {
                    jack_port_get_latency_range(ours, JackCaptureLatency, &range)
                    return range.min == frames && range.max == frames
                }
            }
            source.close()
            host.stop()
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
    /// `detent live --osc 0` on a private server (kept alive by the caller), and its OSC port.
    static func start(_ arguments: [String] = []) throws -> (JackServer, LiveProgram, Int) {
        let server = try JackServer()
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server.name
        let detent = try LiveProgram(["--headless", "--no-midi", "--osc", "0"] + arguments, environment: environment)
        try detent.waitForMessage("OSC on UDP 127.0.0.1:")
        let line = try #require(detent.messages.first { $0.contains("OSC on UDP") })
        return (server, detent, try #require(Int(line.split(separator: ":").last ?? "")))
    }

    @Test("oscsend sets a value that get reads back; subscribers get typed changes")
    func oscEndToEnd() throws {
        let (server, detent, port) = try Self.start()
        defer { withExtendedLifetime(server) {} }
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

    @Test("preset loads a peer floods with long names that do not exist are told in short lines, at most one a second")
    func refusedPresetLoadsAreRateLimited() throws {
        let (server, detent, port) = try Self.start()
        defer { withExtendedLifetime(server) {} }
        let client = try UDPClient(port: port)
        defer { client.close() }
        func padded(_ text: [UInt8]) -> [UInt8] { text + [UInt8](repeating: 0, count: 4 - text.count % 4) }
        let name = [UInt8](repeating: UInt8(ascii: "x"), count: 3_000)  // under the 4096-byte bound: read, then refused
        let packet = padded(Array("/detent/preset/load".utf8)) + padded(Array(",s".utf8)) + padded(name)
        for _ in 0..<50 { client.send(packet) }
        // Then a value, to know the flood has been read.
        client.send(OSCBytes.message("/detent/param/cutoff", float: 2500))
        try waitUntil("the change after the flood lands") { (try? detent.ask("get cutoff")) == "cutoff=2.50 kHz" }
        let told = detent.messages.filter { $0.contains("/detent/preset/load") }
        // One line, then at most one a second while the flood is read (a slow machine may take
        // a few): not one per packet.
        #expect((1...5).contains(told.count), "\(told.count) lines")
        #expect(told.allSatisfy { $0.count < 400 }, "\(told.map(\.count))")
        #expect(detent.finish() == 0)
    }

    @Test("after a chain edit OSC addresses are the new ids, and subscribers hear every value under them")
    func oscFollowsAChainEdit() throws {
        let server = try JackServer()
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server.name
        let detent = try LiveProgram(["--headless", "--no-midi", "--osc", "0", "--set", "gain=-6"], environment: environment)
        try detent.waitForMessage("OSC on UDP 127.0.0.1:")
        let line = try #require(detent.messages.first { $0.contains("OSC on UDP") })
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        let client = try UDPClient(port: port)
        defer { client.close() }
        client.send(OSCBytes.message("/detent/subscribe"))
        for _ in 0..<3 { _ = try #require(client.receive(), "the current values arrive") }
        #expect(try detent.ask("chain add tone=builtin") == "chain builtin (Lowpass + gain) -> tone (Lowpass + gain)")
        // Every value again, under its new id: the old processor's gain is builtin.gain now.
        let expected = [OSCBytes.message("/detent/param/builtin.gain", float: -6), OSCBytes.message("/detent/param/tone.gain", float: 0)]
        var heard: [[UInt8]] = []
        while !expected.allSatisfy(heard.contains), heard.count < 16 {
            heard.append(try #require(client.receive(), "the values come again (heard \(heard.count))"))
        }
        #expect(expected.allSatisfy(heard.contains))
        // The new address turns the new slot's knob; the old one is no address now.
        let sent = try ChildProcess.run("/usr/bin/oscsend", ["127.0.0.1", "\(port)", "/detent/param/tone.cutoff", "f", "2500"])
        #expect(sent.status.exited == 0)
        try waitUntil("the OSC change lands") { (try? detent.ask("get tone.cutoff")) == "tone.cutoff=2.50 kHz" }
        _ = try ChildProcess.run("/usr/bin/oscsend", ["127.0.0.1", "\(port)", "/detent/param/cutoff", "f", "300"])
        try detent.waitForMessage("/detent/param/cutoff: no parameter 'cutoff'")
        #expect(try detent.ask("get builtin.cutoff") == "builtin.cutoff=1.00 kHz")
        #expect(detent.finish() == 0)
    }
}

