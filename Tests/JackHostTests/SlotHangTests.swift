import Foundation
import Isolation
import Testing
import TestSupport

/// A plug-in that hangs — in a run, in every restart, or while it starts — costs its slot
/// alone: typed commands keep answering within a second, another slot's crash is restarted
/// meanwhile, and SIGTERM ends the program within two seconds.
@Suite(.serialized) struct SlotHangTests {
    /// `detent live` on a private jackd with the built-in and two fault plug-ins, isolated.
    static func rig(_ server: JackServer, extra: [String] = []) throws -> LiveProgram {
        var environment = server.clientEnvironment
        environment["LV2_PATH"] = try FaultPlugin.built.get()
        let program = try LiveProgram(server.liveArguments + [
            "--headless", "--isolate", "--channels", "1", "--plugin", "lp=builtin",
            "--plugin", "f1=\(FaultPlugin.uri)", "--plugin", "f2=\(FaultPlugin.uri)",
        ] + extra, environment: environment)
        return program
    }

    /// SIGTERM ends it within two seconds, with status 0.
    static func quits(_ program: LiveProgram) {
        let asked = Date()
        #expect(program.child.signal(SIGTERM))
        let status = program.child.wait(seconds: 2)
        #expect(status?.exited == 0, "ended \(status.map { "\($0)" } ?? "not within 2 s") after \(Date().timeIntervalSince(asked)) s")
    }

    @Test func aSlotThatHangsInEveryRunAndRestartLeavesEverythingElseAnswering() throws {
        let server = try JackServer()
        defer { server.stop() }
        let detent = try Self.rig(server)
        try detent.waitForMessage("'detent' on JACK server '\(server.name)'", timeout: 30)
        _ = try detent.ask("set f1.fault 3")  // spins in a run: killed, restarted, spins again
        try detent.waitForMessage("f1: Detent Faults stopped answering", timeout: 10)
        // While f1 hangs again and again, every command is answered within a second, and
        // f2's crash is restarted.
        _ = try detent.ask("set f2.fault 1", timeout: 1)
        try detent.waitForMessage("f2: Detent Faults crashed (Segmentation fault)", timeout: 10)
        _ = try detent.ask("set f2.fault 0", timeout: 1)
        for _ in 0..<5 {
            #expect(try detent.ask("status", timeout: 1).contains("xruns"))
        }
        try detent.waitForMessage("f1 failed 3 times within a minute", timeout: 20)
        #expect(try detent.ask("status", timeout: 1).contains("slot f1"))
        #expect(try detent.ask("restart lp", timeout: 1).hasPrefix("error: 'lp' is Detent's own processor"))
        Self.quits(detent)
    }

    @Test func aSlotThatHangsWhileStartingGivesPortsAtOnceAndIsReportedDown() throws {
        let server = try JackServer()
        defer { server.stop() }
        let started = Date()
        let detent = try Self.rig(server, extra: ["--set", "f1.fault=5"])
        try detent.waitForMessage("'detent' on JACK server '\(server.name)'", timeout: 30)
        #expect(Date().timeIntervalSince(started) < Double(IsolatedSlot.startDeadline.components.seconds),
                "the ports came before the slot's start deadline")
        #expect(server.ports(matching: "^detent:out_1$").count == 1)
        #expect(try detent.ask("status", timeout: 1).contains("xruns"))
        try detent.waitForMessage("f1: Detent Faults did not start within", timeout: Double(IsolatedSlot.startDeadline.components.seconds) + 10)
        #expect(try detent.ask("status", timeout: 1).contains("xruns"))
        Self.quits(detent)
    }

    /// An OSC subscriber hears a slot's fault and its restart as they happen; a restart asked
    /// over OSC is answered.
    @Test func oscSubscribersHearFaultsAndRestarts() throws {
        let server = try JackServer()
        defer { server.stop() }
        let detent = try Self.rig(server, extra: ["--osc", "0"])
        try detent.waitForMessage("detent: OSC on UDP", timeout: 30)
        let line = try #require(detent.messages.first { $0.contains("detent: OSC on UDP") })
        let port = try #require(line.split(separator: " ").first { $0.hasPrefix("127.0.0.1:") }.flatMap { Int($0.split(separator: ":")[1]) })
        let osc = try UDPClient(port: port)
        defer { osc.close() }
        osc.send(FakeSessionManager.encode("/detent/subscribe", []))
        _ = try #require(osc.receive(), "the values come back")
        _ = try detent.ask("set f1.fault 1")
        /// The next message at `path`, skipping parameter feedback.
        func next(_ path: String) throws -> [OSCValue] {
            while let bytes = osc.receive(), let message = FakeSessionManager.decode(bytes) {
                if message.path == path { return message.arguments }
            }
            throw Timeout(what: path)
        }
        let fault = try next("/detent/slot/fault")
        #expect(fault.first == .string("f1"), "\(fault)")
        #expect("\(fault)".contains("Segmentation fault"), "\(fault)")
        #expect(try next("/detent/slot/restarted") == [.string("f1")])
        _ = try detent.ask("set f1.fault 0")
        osc.send(FakeSessionManager.encode("/detent/slot/restart", [.string("f1")]))
        #expect(try next("/detent/slot/restart") == [.string("restarted f1")])
        osc.send(FakeSessionManager.encode("/detent/slot/restart", [.string("nosuch")]))
        #expect("\(try next("/detent/slot/restart"))".contains("no slot 'nosuch'"))
        Self.quits(detent)
    }
}
