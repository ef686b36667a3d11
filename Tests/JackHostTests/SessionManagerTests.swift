import CJack
import Foundation
import Testing
import TestSupport

extension JackTests {
    /// `detent live` under a session manager (the tests' own, speaking the NSM protocol's
    /// server side) on a private JACK server: announce, open by client id, dirty, save,
    /// switch, SIGTERM, and a restart that brings back exactly what was saved.
    @Suite struct SessionManagerTests {
        /// The JACK clients on `server` (by their ports).
        static func clients(_ server: JackServer) -> Set<String> {
            let lsp = try? ChildProcess.run("/usr/bin/env", ["jack_lsp"],
                                            environment: ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 })
            return Set((lsp?.stdoutText ?? "").split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        }

        /// A UDP port for the knob server, unlikely to be taken.
        static let oscPort = 20_000 + Int(getpid() % 20_000)

        /// Starts Detent under `nsm` and answers its announce.
        static func launch(_ nsm: FakeSessionManager, server: JackServer, _ arguments: [String] = []) throws -> DetentProcess {
            let detent = try DetentProcess(["live", "--server", server.name] + arguments, environment: ["NSM_URL": nsm.url])
            let announce = try #require(nsm.expect("/nsm/server/announce"), "Detent announces itself")
            #expect(announce.count == 6)
            #expect(Array(announce.prefix(5)) == [.string("Detent"), .string(":switch:dirty:message:"), .string("detent"), .int(1), .int(2)])
            #expect(announce.last == .int(detent.child.pid))
            nsm.send("/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("Fake NSM"), .string(":server-control:")])
            return detent
        }

        /// Detent started again under a new manager and told to open session `path` as client
        /// `id`, as a manager restoring a saved session does; waits until the client is back.
        static func reopen(_ path: String, id: String, server: JackServer) throws -> (nsm: FakeSessionManager, detent: DetentProcess) {
            let nsm = try FakeSessionManager()
            let detent = try launch(nsm, server: server)
            _ = try open(nsm, path, name: "Session A", id: id)
            try waitUntil("the client is back under its id") { clients(server).contains(id) }
            return (nsm, detent)
        }

        static func open(_ nsm: FakeSessionManager, _ path: String, name: String, id: String) throws -> [OSCValue] {
            nsm.send("/nsm/client/open", [.string(path), .string(name), .string(id)])
            return try #require(nsm.expect("/reply"), "open is answered")
        }

        @Test func aSessionIsOpenedSavedSwitchedAndRestoredExactly() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            let nsm = try FakeSessionManager()
            let detent = try Self.launch(nsm, server: server, ["--osc", "\(Self.oscPort)", "--midi-cc", "cutoff=20"])
            #expect(!Self.clients(server).contains { $0.hasPrefix("detent") }, "no JACK client before open")

            let reply = try Self.open(nsm, folder.file("A"), name: "Session A", id: "detent.nABC")
            #expect(reply.first == .string("/nsm/client/open"))
            try waitUntil("the client named by its id is on the server") { Self.clients(server).contains("detent.nABC") }

            // A knob turned over OSC makes the session dirty.
            let osc = try UDPClient(port: Self.oscPort)
            defer { osc.close() }
            osc.send(OSCBytes.message("/detent/param/cutoff", float: 500))
            #expect(nsm.expect("/nsm/client/is_dirty") != nil)

            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            #expect(nsm.expect("/nsm/client/is_clean") != nil)
            let saved = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            #expect(saved.contains("\"cutoff\": 500"))
            #expect(saved.contains("\"parameter\": \"cutoff\",\n") && saved.contains("\"controller\": 20"))
            #expect(saved.contains("\"port\": \(Self.oscPort)"))

            // A change right after the save's reply is told, however soon it comes.
            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            osc.send(OSCBytes.message("/detent/param/cutoff", float: 700))
            #expect(nsm.expect("/nsm/client/is_dirty") != nil)

            // A second open switches: a new session (nothing saved in B) under a new id.
            let switched = try Self.open(nsm, folder.file("B"), name: "Session B", id: "detent.nDEF")
            #expect(switched.first == .string("/nsm/client/open"))
            try waitUntil("the client has switched") {
                let clients = Self.clients(server)
                return clients.contains("detent.nDEF") && !clients.contains("detent.nABC")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.file("B/detent.json")), "nothing saved before a save")

            // SIGTERM, the manager's way to close a client, ends it at once and cleanly.
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 10)?.exited == 0)

            // A restart from the saved state: the same name, value and mapping, with no options.
            let (nsm2, restarted) = try Self.reopen(folder.file("A"), id: "detent.nABC", server: server)
            let osc2 = try UDPClient(port: Self.oscPort)
            defer { osc2.close() }
            osc2.send(OSCBytes.message("/detent/get/cutoff"))
            let answer = try #require(osc2.receive().flatMap(FakeSessionManager.decode))
            #expect(answer.path == "/detent/param/cutoff" && answer.arguments == [.float(500)])
            nsm2.send("/nsm/client/save", [])
            #expect(nsm2.expect("/reply")?.first == .string("/nsm/client/save"))
            #expect(try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8) == saved, "saved again, the same state")
            #expect(restarted.child.signal(SIGTERM))
            #expect(restarted.child.wait(seconds: 10)?.exited == 0)
        }

        /// `--osc 0` asks for any free port: the one bound is said and kept in the session, so a
        /// controller pointed at it finds it again after a restart.
        @Test func anyFreeOSCPortIsSaidAndKeptInTheSession() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            let nsm = try FakeSessionManager()
            let detent = try Self.launch(nsm, server: server, ["--osc", "0"])
            _ = try Self.open(nsm, folder.file("A"), name: "Session A", id: "detent.nOSC")
            try waitUntil("the client is on the server") { Self.clients(server).contains("detent.nOSC") }
            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            let saved = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            #expect(detent.child.signal(SIGTERM))
            let run = detent.finish()
            let line = try #require(run.stderr.first { $0.hasPrefix("detent: OSC on UDP 127.0.0.1:") }, "\(run.stderr)")
            let port = try #require(Int(line.split(separator: ":").last ?? ""))
            #expect(port > 0)
            #expect(saved.contains("\"port\": \(port)"), "\(saved)")
        }

        @Test func aSessionManagerThatRefusesOrIsAbsentIsOneLine() throws {
            let nsm = try FakeSessionManager()
            let refused = try DetentProcess(["live", "--server", "detent-test-absent"], environment: ["NSM_URL": nsm.url])
            #expect(nsm.expect("/nsm/server/announce") != nil)
            nsm.send("/error", [.string("/nsm/server/announce"), .int(-3), .string("blacklisted")])
            let run = refused.finish()
            #expect(run.status == 1)
            #expect(run.stderr == ["detent: the session manager refused Detent: blacklisted"])

            let bad = try DetentProcess.run(["live"], environment: ["NSM_URL": "http://example.org/"])
            #expect(bad.status == 1)
            #expect(bad.stderr == ["detent: NSM_URL 'http://example.org/' is not an OSC URL (osc.udp://HOST:PORT/)"])
        }

        /// A chain edited under the manager (OSC `/detent/chain`, the one way to edit it with no
        /// terminal), whose convolver holds an impulse response from the command line, is saved
        /// with its slots' states beside the session file; reopened with no options after the
        /// original file went, it is the chain as edited, and the convolver sounds (without
        /// its response convoLV2 is silent).
        @Test func aChainEditedUnderTheManagerReopensAsEditedWithItsPluginState() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            var impulse = [Float](repeating: 0, count: 64)
            impulse[9] = 0.5
            let raw = folder.file("delta.f32"), ir = folder.file("delta.wav")
            try impulse.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
            let sox = try ChildProcess.run("/usr/bin/env", ["sox", "-t", "raw", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", raw,
                                                            "-b", "32", "-e", "floating-point", ir])
            try #require(sox.status.exited == 0, "\(sox.stderrText)")
            let nsm = try FakeSessionManager()
            let detent = try Self.launch(nsm, server: server, ["--channels", "1", "--osc", "\(Self.oscPort)", "--plugin", "lp=builtin",
                                                              "--plugin", "conv=http://gareus.org/oss/lv2/convoLV2#Mono", "--set", "conv.impulse=\(ir)"])
            _ = try Self.open(nsm, folder.file("A"), name: "Session A", id: "detent.nCHN")
            try waitUntil("the client is on the server") { Self.clients(server).contains("detent.nCHN") }
            let osc = try UDPClient(port: Self.oscPort)
            defer { osc.close() }
            osc.send(FakeSessionManager.encode("/detent/chain", [.string("add lp2=builtin")]))
            let edited = try #require(osc.receive().flatMap(FakeSessionManager.decode), "the edit is answered")
            #expect(edited.path == "/detent/chain")
            #expect("\(edited.arguments)".contains("lp2"), "\(edited.arguments)")
            #expect(nsm.expect("/nsm/client/is_dirty") != nil, "an edit makes the session dirty")
            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            let saved = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            #expect(saved.contains("lp2=detent:lowpass-gain") && saved.contains(#""folder": "detent.state/conv""#), "\(saved)")
            #expect(FileManager.default.fileExists(atPath: folder.file("A/detent.state/conv/delta.wav")), "the response is copied")
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 10)?.exited == 0)
            try FileManager.default.removeItem(atPath: ir)

            let (manager, restarted) = try Self.reopen(folder.file("A"), id: "detent.nCHN", server: server)
            defer { withExtendedLifetime(manager) {} }  // the session's manager, there while it runs
            let osc2 = try UDPClient(port: Self.oscPort)
            defer { osc2.close() }
            osc2.send(FakeSessionManager.encode("/detent/chain", []))
            let chain = try #require(osc2.receive().flatMap(FakeSessionManager.decode))
            let text = "\(chain.arguments)"
            #expect(text.contains("lp") && text.contains("conv") && text.contains("lp2"), "\(text)")

            let tone = Signal.sine(frequency: 440, frames: 24_000, amplitude: 0.25)
            let player = try TestClient("player", server: server.name, play: [tone])
            let recorder = try TestClient("recorder", server: server.name, inputs: 1, record: tone.count, follow: player)
            #expect(player.connect("player:out_1", "detent.nCHN:in_1") == 0)
            #expect(recorder.connect("detent.nCHN:out_1", "recorder:in_1") == 0)
            player.start()
            try waitUntil("the tone is recorded", timeout: 30) { recorder.recordedFrames >= tone.count }
            let peak = recorder.recording[0].dropFirst(4_800).map(abs).max() ?? 0
            #expect(peak > 0.02, "the convolver sounds with the saved response (peak \(peak))")
            player.close()
            recorder.close()
            #expect(restarted.child.signal(SIGTERM))
            #expect(restarted.child.wait(seconds: 10)?.exited == 0)
        }

        /// A session of a VST3 and a VST2 slot that keep a state of their own (the VST3
        /// component's and controller's, LSP's chunk) keeps each beside the session file, and
        /// reopened it plays with both, their values as saved.
        @Test func binaryPlugInStatesGoWithTheSession() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            let nsm = try FakeSessionManager()
            let detent = try Self.launch(nsm, server: server, ["--channels", "1", "--plugin", "comp=vst3:ZamComp",
                                                              "--plugin", "lsp=vst2:Compressor Mono", "--set", "comp.threshold=-30"])
            _ = try Self.open(nsm, folder.file("A"), name: "Session A", id: "detent.nBIN")
            try waitUntil("the client is on the server") { Self.clients(server).contains("detent.nBIN") }
            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            let saved = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            #expect(saved.contains(#""folder": "detent.state/comp""#) && saved.contains(#""folder": "detent.state/lsp""#), "\(saved)")
            for slot in ["comp", "lsp"] {
                #expect(FileManager.default.fileExists(atPath: folder.file("A/detent.state/\(slot)/state.bin")), "\(slot)'s state is kept")
            }
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 10)?.exited == 0)

            let (manager, restarted) = try Self.reopen(folder.file("A"), id: "detent.nBIN", server: server)
            defer { withExtendedLifetime(manager) {} }  // the session's manager, there while it runs
            #expect(restarted.child.signal(SIGTERM))
            let outcome = restarted.finish()
            #expect(outcome.status == 0)
            let said = outcome.stderr.joined(separator: "\n")
            #expect(!said.contains("refused") && !said.contains("cannot read"), "\(said)")
        }

        /// The processes of `detent` that serve isolated slots (`detent slot`).
        static func slotProcesses(of pid: pid_t) -> [String] {
            let children = (try? ChildProcess.run("/usr/bin/pgrep", ["-a", "-P", "\(pid)"]))?.stdoutText ?? ""
            return children.split(separator: "\n").map(String.init).filter { $0.contains(" slot") }
        }

        /// A session keeps how its plug-ins were isolated: reopened by a `detent` started with
        /// no `--isolate`, they run in one process again (`--isolate=together`).
        @Test func theSandboxPlanGoesWithTheSession() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            let nsm = try FakeSessionManager()
            let detent = try Self.launch(nsm, server: server, ["--isolate=together", "--plugin", "drive=http://drobilla.net/plugins/mda/Overdrive",
                                                              "--plugin", "comp=urn:zamaudio:ZamComp"])
            _ = try Self.open(nsm, folder.file("A"), name: "Session A", id: "detent.nISO")
            try waitUntil("the client is on the server") { Self.clients(server).contains("detent.nISO") }
            try waitUntil("one process serves both slots") { Self.slotProcesses(of: detent.child.pid).count == 1 }
            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            let saved = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            #expect(saved.contains(#""isolate": "together""#), "\(saved)")
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 10)?.exited == 0)

            let (manager, restarted) = try Self.reopen(folder.file("A"), id: "detent.nISO", server: server)
            defer { withExtendedLifetime(manager) {} }
            try waitUntil("the reopened session's slots share one process again") { Self.slotProcesses(of: restarted.child.pid).count == 1 }
            #expect(restarted.child.signal(SIGTERM))
            #expect(restarted.finish().status == 0)

            // A session saved in process says so, and reopens in process under an isolating detent.
            var file = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            file = file.replacingOccurrences(of: #""isolate": "together""#, with: #""isolate": null"#)
            try file.write(toFile: folder.file("A/detent.json"), atomically: true, encoding: .utf8)
            let third = try FakeSessionManager()
            let isolating = try Self.launch(third, server: server, ["--isolate"])
            _ = try Self.open(third, folder.file("A"), name: "Session A", id: "detent.nISO")
            try waitUntil("the client is back") { Self.clients(server).contains("detent.nISO") }
            #expect(Self.slotProcesses(of: isolating.child.pid).isEmpty)
            #expect(isolating.child.signal(SIGTERM))
            #expect(isolating.finish().status == 0)
        }

        /// A preset saved from an isolated rig keeps the plan, and a rig started from it runs so
        /// unless the command line says otherwise.
        @Test func theSandboxPlanGoesWithAPreset() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            let rig = ["--headless", "--no-midi", "--plugin", "drive=http://drobilla.net/plugins/mda/Overdrive", "--plugin", "comp=urn:zamaudio:ZamComp"]
            let isolated = try LiveProgram(on: server, rig + ["--isolate=together"])
            #expect(try isolated.ask("preset save Iso") == "saved preset Iso")
            #expect(isolated.finish() == 0)
            let file = isolated.configFolder + "/detent/presets/Iso.json"
            let saved = try String(contentsOfFile: file, encoding: .utf8)
            #expect(saved.contains(#""isolate": "together""#), "\(saved)")
            try FileManager.default.copyItem(atPath: file, toPath: folder.file("iso.json"))
            let started = try LiveProgram(on: server, rig + ["--preset", folder.file("iso.json")])
            try waitUntil("the preset's slots share one process") { Self.slotProcesses(of: started.child.pid).count == 1 }
            #expect(started.finish() == 0)
        }

        /// Under the manager there is no terminal: a convolver's impulse response is set over
        /// OSC (`/detent/param/conv.impulse s PATH`, from this user), saved with the session
        /// and copied beside it.
        @Test func aFileParameterSetOverOSCIsSavedWithTheSession() throws {
            let server = try JackServer()
            defer { server.stop() }
            let folder = TemporaryFolder()
            var impulse = [Float](repeating: 0, count: 64)
            impulse[3] = 0.5
            let ir = folder.write("pulse.wav", WAV.float([impulse]))
            let nsm = try FakeSessionManager()
            let detent = try Self.launch(nsm, server: server, ["--channels", "1", "--osc", "\(Self.oscPort + 1)", "--plugin", "lp=builtin",
                                                              "--plugin", "conv=http://gareus.org/oss/lv2/convoLV2#Mono"])
            _ = try Self.open(nsm, folder.file("A"), name: "Session A", id: "detent.nIR")
            try waitUntil("the client is on the server") { Self.clients(server).contains("detent.nIR") }
            let osc = try UDPClient(port: Self.oscPort + 1)
            defer { osc.close() }
            osc.send(FakeSessionManager.encode("/detent/param/conv.impulse", [.string(ir)]))
            #expect(nsm.expect("/nsm/client/is_dirty") != nil, "a file set makes the session dirty")
            nsm.send("/nsm/client/save", [])
            #expect(nsm.expect("/reply")?.first == .string("/nsm/client/save"))
            let saved = try String(contentsOfFile: folder.file("A/detent.json"), encoding: .utf8)
            #expect(saved.contains(#""folder": "detent.state/conv""#), "\(saved)")
            #expect(FileManager.default.fileExists(atPath: folder.file("A/detent.state/conv/pulse.wav")), "the response is copied")
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 10)?.exited == 0)
        }

        @Test func anOpenWithoutAServerIsAnErrorReply() throws {
            let nsm = try FakeSessionManager()
            let folder = TemporaryFolder()
            let detent = try DetentProcess(["live", "--server", "detent-test-absent-\(getpid())"], environment: ["NSM_URL": nsm.url])
            #expect(nsm.expect("/nsm/server/announce") != nil)
            nsm.send("/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("Fake NSM"), .string("")])
            nsm.send("/nsm/client/open", [.string(folder.file("A")), .string("A"), .string("detent.nX")])
            let error = try #require(nsm.expect("/error"))
            #expect(error.first == .string("/nsm/client/open"))
            #expect(error.dropFirst().first == .int(-4))
            #expect(detent.child.signal(SIGTERM))
            #expect(detent.child.wait(seconds: 10)?.exited == 0)
        }
    }
}
