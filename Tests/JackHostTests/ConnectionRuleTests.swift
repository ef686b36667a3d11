import Foundation
import Testing
import TestSupport

extension JackTests {
/// `--connect-inputs` and `--connect-outputs` are rules for the whole run: a player started
/// after Detent is connected, and connected again when it comes back; `status` lists each rule
/// with what it connects. (Its players are clients of this process: among JackTests, serial.)
@Suite struct ConnectionRuleTests {
    @Test func aPlayerStartedLaterIsConnectedAndConnectedAgainWhenItReturns() throws {
        let server = try JackServer()
        defer { server.stop() }
        let detent = try LiveProgram(server.liveArguments + [
            "--headless", "--channels", "1", "--connect-inputs", "^late:out_", "--connect-outputs", "^taker:in_",
        ], environment: server.clientEnvironment)
        try detent.waitForMessage("'detent' on JACK server '\(server.name)'", timeout: 30)
        #expect(detent.messages.contains { $0.contains("no JACK ports match --connect-inputs '^late:out_' yet") }, "\(detent.messages)")
        #expect(try detent.ask("status").contains("rule --connect-inputs '^late:out_' (nothing yet)"))
        // Started after Detent: connected by the rule.
        let tone = Signal.sine(frequency: 440, frames: 4_800, amplitude: 0.25)
        var player: TestClient? = try TestClient("late", server: server.name, play: [tone])
        let taker = try TestClient("taker", server: server.name, inputs: 1, record: 4_800)
        try waitUntil("the late player and the taker are connected", timeout: 10) {
            player?.connections(of: "late:out_1") == ["detent:in_1"] && taker.connections(of: "taker:in_1") == ["detent:out_1"]
        }
        let status = try detent.ask("status")
        #expect(status.contains("rule --connect-inputs '^late:out_' (late:out_1)"), "\(status)")
        #expect(status.contains("rule --connect-outputs '^taker:in_' (taker:in_1)"), "\(status)")
        // Gone, then back: connected again.
        player?.close()
        player = nil
        try waitUntil("the player is gone") { server.ports(matching: "^late:").isEmpty }
        let again = try TestClient("late", server: server.name, play: [tone])
        try waitUntil("the returning player is connected again", timeout: 10) { again.connections(of: "late:out_1") == ["detent:in_1"] }
        again.close()
        taker.close()
        #expect(detent.finish() == 0)
    }
}
}
