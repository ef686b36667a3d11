import Control
import Foundation
import JackHost
import Testing
import TestSupport

@Suite struct MIDIMessageTextTests {
    @Test("messages in the terms a mapping uses")
    func words() {
        var text = MIDIMessageText()
        #expect(text.describe([0xB0, 74, 64]) == "ch 1  CC 74 = 64")
        #expect(text.describe([0x9F, 60, 100]) == "ch 16  note on C4 (60), velocity 100")
        #expect(text.describe([0x90, 61, 0]) == "ch 1  note off C#4 (61) (note on, velocity 0)")
        #expect(text.describe([0x81, 21, 5]) == "ch 2  note off A0 (21), velocity 5")
        #expect(text.describe([0xC2, 7]) == "ch 3  program change 7")
        #expect(text.describe([0xE0, 0, 64]) == "ch 1  pitch bend 8192 (centre 8192)")
        #expect(text.describe([0xD0, 90]) == "ch 1  channel pressure 90")
        #expect(text.describe([0xB0, 48, 37]) == "ch 1  CC 48 = 37 (LSB of CC 16)")
        #expect(text.describe([0xB0, 123, 0]) == "ch 1  CC 123 = 0 (channel mode: all notes off)")
        #expect(text.describe([0xB0, 99, 9]) == "ch 1  CC 99 = 9 (NRPN select, MSB)")
        #expect(text.describe([0xB0, 98, 82]) == "ch 1  CC 98 = 82 (NRPN 1234 selected)")
        #expect(text.describe([0xB0, 6, 100]) == "ch 1  CC 6 = 100 (data entry: NRPN 1234 = 12800)")
        #expect(text.describe([0xB0, 38, 5]) == "ch 1  CC 38 = 5 (data entry LSB: NRPN 1234 = 12805)")
        #expect(text.describe([0xB0, 96, 0]) == "ch 1  CC 96 = 0 (increment: NRPN 1234 = 12806)")
        #expect(text.describe([0xF8]) == "clock")
        #expect(text.describe([0xF0, 1, 2]) == "system exclusive, 3 bytes")
    }
}

extension JackTests {
    @Suite struct MIDIMonitorTests {
        @Test func theMonitorShowsWhatAControllerSends() throws {
            let server = try JackServer()
            defer { server.stop() }
            let midi: [(frame: Int, bytes: [UInt8])] = [
                (100, [0xB0, 74, 64]), (300, [0x91, 60, 100]), (500, [0xC0, 3]), (700, [0xB0, 99, 9]), (701, [0xB0, 98, 82]),
                (702, [0xB0, 6, 100]),
            ]
            let player = try TestClient("player", server: server.name, midi: midi)
            defer { player.close() }
            let monitor = try DetentProcess(["midi", "monitor", "--server", server.name, "--connect", "^player:midi_out$"])
            try waitUntil("the monitor is connected") { player.connections(of: "player:midi_out") == ["detent-monitor:midi_in"] }
            player.start()
            try waitUntil("everything is played") { player.playedFrames >= 702 + 2 * server.period }
            #expect(monitor.child.signal(SIGINT))
            let run = monitor.finish()
            #expect(run.status == 0)
            #expect(run.stdout == [
                "ch 1  CC 74 = 64", "ch 2  note on C4 (60), velocity 100", "ch 1  program change 3",
                "ch 1  CC 99 = 9 (NRPN select, MSB)", "ch 1  CC 98 = 82 (NRPN 1234 selected)",
                "ch 1  CC 6 = 100 (data entry: NRPN 1234 = 12800)",
            ])
            #expect(run.stderr == ["detent: listening on 'detent-monitor:midi_in'; Ctrl-C stops"])
        }

        @Test func noServerIsOneLine() throws {
            let name = "detent-test-absent-\(getpid())"
            let run = try DetentProcess.run(["midi", "monitor", "--server", name])
            #expect(run.status == 1)
            #expect(run.stderr == ["detent: \(LiveHostError.noServer(server: name))"])
        }
    }
}
