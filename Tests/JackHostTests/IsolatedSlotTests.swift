import Rig
import TestSupport
import AudioEngine
import Foundation
import Isolation
import Parameters
import LV2
import Testing

extension JackTests {
    /// Plug-ins in processes of their own, live on a private jackd: what comes out equals the
    /// plug-in run in process, sample for sample.
    @Suite struct IsolatedSlotTests {
        static func launcher() throws -> SlotLauncher { SlotLauncher(program: try BuiltProducts.detent) }

        @Test(arguments: [
            "http://drobilla.net/plugins/mda/Overdrive",        // stereo, direct
            "http://plugin.org.uk/swh-plugins/buttlow_iir",     // mono, one instance per channel
            "http://lsp-plug.in/plugins/lv2/compressor_stereo", // a worker, meters
        ])
        func anIsolatedPlugInPlaysAsInProcess(uri: String) throws {
            let plugin = try LivePluginTests.processor(uri)
            let f = try LivePluginTests.expectLiveEqualsOffline(plugin.isolated(try Self.launcher()), reference: plugin)
            #expect(f.host.status().outputs.map(\.id) == plugin.outputs.map(\.id))
        }

        @Test(arguments: ["vst3:ZamComp", "clap:ZamEQ2", "vst2:ZamTube"])
        func anIsolatedBinaryPlugInPlaysAsInProcess(reference: String) throws {
            let plugin = try InstalledPlugins.catalogue.find(reference).processor()
            let f = try LivePluginTests.expectLiveEqualsOffline(plugin.isolated(try Self.launcher()), reference: plugin)
            #expect(f.host.status().outputs.map(\.id) == plugin.outputs.map(\.id))
        }
    }
}

extension JackTests {
    /// `detent live --isolate` with a plug-in that crashes, aborts, spins or exits on command
    /// in the middle of a three-slot chain: Detent lives, the tone through the chain plays on,
    /// `status` names the slot, `restart` brings it back.
    @Suite struct IsolatedFaultTests {
        /// The longest run of silence (|x| < 1e-4) in `signal`, in frames, after the first sound.
        static func longestGap(_ signal: [Float]) -> Int {
            guard let first = signal.firstIndex(where: { abs($0) >= 1e-4 }) else { return signal.count }
            var longest = 0, run = 0
            for x in signal[first...] {
                run = abs(x) < 1e-4 ? run + 1 : 0
                longest = max(longest, run)
            }
            return longest
        }

        @Test func aCrashingSlotCostsItselfAloneAndComesBackWithRestart() throws {
            let plugins = try FaultPlugin.built.get()
            let server = try JackServer()
            let seconds = 9
            let tone = Signal.sine(frequency: 440, frames: 48_000 * seconds, amplitude: 0.25)
            let player = try TestClient("player", server: server.name, play: [tone])
            let recorder = try TestClient("recorder", server: server.name, inputs: 1, record: tone.count, follow: player)
            let detent = try DetentProcess([
                "live", "--server", server.name, "--name", "rig", "--isolate", "--headless", "--json", "--channels", "1",
                "--plugin", "lp=builtin", "--plugin", "f1=\(FaultPlugin.uri)", "--plugin", "f2=\(FaultPlugin.uri)",
                "--set", "lp.cutoff=20000", "--connect-inputs", "^player:out_1$", "--connect-outputs", "^recorder:in_1$",
            ], environment: ["LV2_PATH": plugins])
            try waitUntil("detent connects to the player and the recorder") {
                player.connections(of: "player:out_1") == ["rig:in_1"] && recorder.connections(of: "recorder:in_1") == ["rig:out_1"]
            }
            player.start()
            func at(_ second: Double) throws {
                try waitUntil("\(second) s recorded", timeout: 30) { recorder.recordedFrames >= Int(second * 48_000) }
            }
            try at(1)
            detent.send("set f1.fault 1\n")  // a segmentation fault: restarted, crashes again, held after three
            try at(5)
            detent.send("status\nset f1.fault 0\nrestart f1\n")
            try at(6)
            detent.send("status\nset f1.fault 3\nset f2.fault 2\n")  // one spins, one aborts, at once
            try at(8.5)
            detent.send("status\nquit\n")
            try waitUntil("the recording is whole", timeout: 30) { recorder.recordedFrames >= tone.count }
            let run = detent.finish()
            server.stop()
            #expect(run.status == 0, "\(run.stderr)")
            let answers = try run.stdout.map { try jsonObject($0) }
            let statuses = answers.filter { $0["server"] != nil }
            try #require(statuses.count == 3, "\(run.stdout)")
            #expect((statuses[0]["faults"] as? [String: String])?["f1"]?.hasPrefix("crashed (Segmentation fault)") == true,
                    "\(statuses[0]["faults"] ?? "none")")
            #expect(answers.contains { $0["restarted"] as? String == "f1" })
            #expect((statuses[1]["faults"] as? [String: String]) == [:])
            let last = statuses[2]["faults"] as? [String: String] ?? [:]
            #expect(last.keys.sorted() == ["f1", "f2"], "\(last)")
            #expect(run.stderr.contains { $0.contains("f1: Detent Faults crashed (Segmentation fault)") }, "\(run.stderr)")
            #expect(run.stderr.contains { $0.contains("f1 failed 3 times within a minute") }, "\(run.stderr)")
            #expect(run.stderr.contains { $0.contains("f1: Detent Faults stopped answering") }, "\(run.stderr)")
            #expect(run.stderr.contains { $0.contains("f2: Detent Faults crashed (Aborted)") }, "\(run.stderr)")
            // The tone went on through every fault, up to the quit: the crashed slots passed it through.
            let recorded = Array(recorder.recording[0].prefix(48_000 * 8))
            #expect(Self.longestGap(recorded) < 4_800, "a gap of \(Self.longestGap(recorded)) frames")
        }
    }
}

/// The same faults on jackd2 and on PipeWire, with `detent live` as a program and the tone
/// from JACK's own example client, recorded by `jack_rec`.
@Suite(.serialized) struct IsolatedFaultServerTests {
    @Test(arguments: LiveServerKind.available)
    func faultsAreContainedOnEveryServer(kind: LiveServerKind) throws {
        let plugins = try FaultPlugin.built.get()
        let server = try kind.start()
        defer { server.stop() }
        var environment = server.clientEnvironment
        environment["LV2_PATH"] = plugins
        let tone = try ChildProcess("/usr/bin/jack_simple_client", [], environment: server.clientEnvironment)
        defer {
            tone.signal(SIGTERM)
            tone.wait()
        }
        try waitUntil("the tone plays") { server.ports(matching: "^jack_simple_client:output1$").count == 1 }
        let detent = try LiveProgram(server.liveArguments + [
            "--headless", "--isolate", "--channels", "1", "--plugin", "lp=builtin", "--plugin", "f1=\(FaultPlugin.uri)",
            "--plugin", "f2=\(FaultPlugin.uri)", "--set", "lp.cutoff=20000", "--connect-inputs", "^jack_simple_client:output1$",
        ], environment: environment)
        try detent.waitForMessage("'detent' on JACK server '\(server.serverName)'")
        let folder = TemporaryFolder()
        let recording = folder.file("out.wav")
        let recorder = try ChildProcess("/usr/bin/jack_rec", ["-f", recording, "-d", "8", "-B", "1048576", "detent:out_1"],
                                        environment: server.clientEnvironment)
        try waitUntil("jack_rec records") { server.ports(matching: "^jackrec:").count >= 1 }

        _ = try detent.ask("set f1.fault 1")
        try detent.waitForMessage("f1 failed 3 times within a minute", timeout: 20)
        #expect(try detent.ask("status").contains("slot f1 crashed (Segmentation fault), passing its input through"))
        _ = try detent.ask("set f1.fault 0")
        #expect(try detent.ask("restart f1") == "restarted f1")
        #expect(try !detent.ask("status").contains("slot f1"))
        _ = try detent.ask("set f1.fault 3")
        _ = try detent.ask("set f2.fault 2")
        try detent.waitForMessage("f1: Detent Faults stopped answering", timeout: 20)
        try detent.waitForMessage("f2: Detent Faults crashed (Aborted)", timeout: 20)
        #expect(try detent.ask("status").contains("xruns"))  // still there, still answering

        guard let ended = recorder.wait(seconds: 30) else {
            recorder.signal(SIGKILL)
            recorder.wait()
            throw Timeout(what: "jack_rec records eight seconds")
        }
        #expect(ended.exited == 0)
        #expect(detent.finish() == 0)
        let played = try PipeWireTests.pcm16(recording).channels[0]
        #expect(played.contains { abs($0) > 0.05 }, "the tone came through")
        #expect(JackTests.IsolatedFaultTests.longestGap(played) < 4_800, "a gap of \(JackTests.IsolatedFaultTests.longestGap(played)) frames")
    }
}

/// What a slot's sandbox is asked, as it crosses on the command line and the control socket.
@Suite struct SlotRequestTests {
    @Test("a request reads back as written: processor, files, state, format")
    func roundTrip() throws {
        var format = KernelFormat(sampleRate: 44_100, maxFrames: 4_096, channels: 2, realtime: true, beatsPerMinute: 123.5,
                                  followsTransport: true)
        format.startingValues = [0.1, 20_000, -6, 1e-7]
        for request in [
            SlotRequest(identifier: "http://gareus.org/oss/lv2/convoLV2#Mono", files: ["impulse": "/tmp/a b.wav"],
                        state: .folder(path: "/tmp/Hall.state", files: ["hall.wav"]), format: format),
            SlotRequest(identifier: "ladspa:1903", files: [:], state: .preset(uri: "urn:x"), format: format),
            SlotRequest(identifier: "urn:y", files: [:], state: nil, format: KernelFormat(sampleRate: 48_000, maxFrames: 256, channels: 1)),
        ] {
            #expect(SlotRequest(json: request.json) == request, "\(request.json)")
        }
        #expect(SlotRequest(json: "{}") == nil && SlotRequest(json: "not json") == nil)
    }

    @Test("a sandbox reads back as written: name and priority")
    func sandboxRoundTrip() {
        for sandbox in [SandboxRequest(name: "together", priority: 65), SandboxRequest(name: "drive+eq", priority: nil)] {
            #expect(SandboxRequest(json: sandbox.json) == sandbox, "\(sandbox.json)")
        }
        #expect(SandboxRequest(json: "{}") == nil && SandboxRequest(json: "[1]") == nil)
    }

    @Test("sandbox plans: together, groups by slot name, and what is refused")
    func plans() throws {
        #expect(try SandboxPlan(parsing: "together") == .together)
        let groups = try SandboxPlan(parsing: "Drive+eq, verb")
        #expect(groups == .groups([["drive", "eq"], ["verb"]]))
        #expect(groups.unknownSlots(among: ["drive", "EQ", "lp"]) == ["verb"])
        #expect(SandboxPlan.together.unknownSlots(among: []) == [])
        for bad in ["drive++eq", "drive,", "a+b,b"] {
            #expect(throws: SlotError.self, "\(bad)") { try SandboxPlan(parsing: bad) }
        }
    }
}
