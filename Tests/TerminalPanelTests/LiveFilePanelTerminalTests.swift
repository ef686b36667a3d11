import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// `detent live` on a terminal hosting x42's convoLV2: `f` opens the file prompt, Tab completes
/// the path from the folder, Enter loads the impulse response into the running plug-in, and
/// its name shows among the outputs; a file that is no audio is one line and the old one stays;
/// `s` saves a preset that keeps the file.
extension PanelTerminalTests {
    @Test("detent live's panel loads a plug-in's file with f, completing the path with Tab")
    func liveFilePrompt() throws {
        let config = TemporaryFolder()
        // A one-sample impulse response, and a text file beside it.
        let made = try ChildProcess.run("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point",
                                                         config.file("impulse.wav"), "trim", "0", "64s"])
        #expect(made.status.exited == 0)
        config.write("impulse-notes.txt", text: "not audio\n")
        let server = try JackServer(period: 256, sampleRate: 48_000)
        defer { server.stop() }
        let pty = try start(["live", "--server", server.name, "--plugin", "http://gareus.org/oss/lv2/convoLV2#Mono"],
                            config: config, width: 100, height: 32)
        let before = pty.initialSettings
        #expect(pty.wait { $0.contains("48 kHz") && $0.contains("impulse        (none)") })
        pty.send("f")
        #expect(pty.wait { $0.contains("impulse [") == false && $0.contains("impulse file: ") })
        // Two names start with "imp": Tab completes what they share and offers both.
        pty.send("imp\t")
        #expect(pty.wait { $0.contains("impulse file: impulse") && $0.contains("impulse-notes.txt  impulse.wav") })
        pty.send(".\t\r")
        #expect(pty.wait { $0.contains("impulse: loaded impulse.wav") && $0.contains("impulse        impulse.wav") })
        // Not audio: the plug-in cannot load it; the old file stays.
        pty.send("f")
        #expect(pty.wait { $0.contains("impulse file: " + config.path + "/impulse.wav") })
        pty.send("\u{15}impulse-notes.txt\r")
        #expect(pty.wait { $0.contains("set impulse: \(config.path)/impulse-notes.txt: not an audio file")
                && $0.contains("impulse        impulse.wav") })
        // s keeps the loaded file in the preset's state folder, as the typed `preset save` does.
        pty.send("s")
        #expect(pty.wait { $0.contains("Save preset as: Default") })
        pty.send(String(repeating: "\u{7F}", count: 7) + "Room\r")
        #expect(pty.wait { $0.contains("saved 'Room'") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)
        let saved = try String(contentsOfFile: config.file("detent/presets/Room.json"), encoding: .utf8)
        #expect(saved.contains(#""folder": "Room.state""#), "\(saved)")
        #expect(FileManager.default.fileExists(atPath: config.file("detent/presets/Room.state/impulse.wav")), "the file is copied")
    }
}
