import Foundation
import Testing
import TestSupport

/// `detent live --osc` asked over OSC how it is doing (`/detent/status`) and told to learn a MIDI
/// controller (`/detent/midi/learn`), on a private JACK server. The controller is a second
/// `detent live`, whose `midi_out` sends its mapped parameters' positions when they change.
@Suite("Live OSC status and MIDI learn")
struct LiveOSCRemoteTests {
    @Test("/detent/status answers the typed status line, or its JSON object")
    func status() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--osc", "0", "--set", "cutoff=1200"])
        let client = try UDPClient(port: try detent.oscPort())
        defer { client.close() }

        client.send(OSCBytes.message("/detent/status"))
        let answer = try #require(client.receive(), "status is answered")
        let (path, line) = try #require(LiveProgram.stringMessage(answer))
        #expect(path == "/detent/status")
        #expect(line.hasPrefix("server \(server.name), client detent, 48000 Hz, 256 frames, xruns "), "\(line)")
        #expect(line.contains("cutoff=1.20 kHz") && line.contains("peaks "), "\(line)")
        // The same facts as typed: the same fields in the same order (DSP load and peaks move).
        let typed = try detent.ask("status")
        func fields(_ text: String) -> [String] { text.split(separator: ", ").map { String($0.split(separator: " ").first ?? "") } }
        #expect(fields(line) == fields(typed), "\(line) / \(typed)")

        client.send(OSCBundle.message("/detent/status", string: "json"))
        let jsonAnswer = try #require(client.receive(), "status json is answered")
        let (_, json) = try #require(LiveProgram.stringMessage(jsonAnswer))
        let object = try jsonObject(json)
        #expect(object["ok"] as? Bool == true)
        #expect(object["server"] as? String == server.name)
        #expect(object["connected"] as? Bool == true)
        #expect(object["sampleRate"] as? Int == 48_000)
        #expect((object["values"] as? [String: Any])?["cutoff"] as? Double == 1200)
        #expect(detent.finish() == 0)
    }

    @Test("/detent/midi/learn maps the next controller heard to the parameter and says which")
    func midiLearn() throws {
        let server = try JackServer()
        // The controller: its cutoff, and nothing else, is sent on midi_out as CC 21.
        let controller = try LiveProgram(server.liveArguments + ["--headless", "--name", "controller", "--midi-cc", "cutoff=21",
                                                                 "--midi-cc", "resonance=none", "--midi-cc", "gain=none"],
                                         environment: server.clientEnvironment)
        try controller.waitForMessage("'controller' on JACK server")
        let detent = try LiveProgram(on: server, ["--headless", "--osc", "0", "--connect-midi", "^controller:midi_out$"])
        try waitUntil("the controller's midi_out is connected") {
            server.ports(matching: "^controller:midi_out$").count == 1
                && ((try? ChildProcess.run("/usr/bin/jack_lsp", ["-c", "controller:midi_out"], environment: server.clientEnvironment))?
                    .stdoutText.contains("detent:midi_in") == true)
        }
        let client = try UDPClient(port: try detent.oscPort())
        defer { client.close() }
        let before = try detent.ask("midi")
        #expect(before.contains("gain CC 7 ") || before.contains("gain CC 7,"), "\(before)")

        client.send(OSCBundle.message("/detent/midi/learn", string: "gain"))
        // The learn is taken before the controller moves: ask something and wait for its answer.
        client.send(OSCBytes.message("/detent/get/gain"))
        _ = try #require(client.receive(), "get is answered")
        _ = try controller.ask("set cutoff 5000")
        let learnt = try #require(client.receive(), "the learn is answered")
        #expect(learnt == OSCBytes.padded("/detent/midi/learn") + OSCBytes.padded(",si") + OSCBytes.padded("gain") + [0, 0, 0, 21])
        let mapping = try detent.ask("midi")
        #expect(mapping.contains("gain CC 21") && !mapping.contains("gain CC 7"), "\(mapping)")
        #expect(detent.finish() == 0)
        #expect(controller.finish() == 0)
    }

    @Test("/detent/midi/learn without a MIDI input is logged and changes nothing")
    func midiLearnWithoutMIDI() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--osc", "0"])
        let client = try UDPClient(port: try detent.oscPort())
        defer { client.close() }
        client.send(OSCBundle.message("/detent/midi/learn", string: "cutoff"))
        try detent.waitForMessage("/detent/midi/learn: no MIDI input to learn from")
        #expect(detent.finish() == 0)
    }
}

extension LiveProgram {
    /// The OSC port it says it listens on.
    func oscPort() throws -> Int {
        try waitForMessage("OSC on UDP 127.0.0.1:")
        let line = try #require(messages.first { $0.contains("OSC on UDP") })
        return try #require(Int(line.split(separator: ":").last ?? ""))
    }

    /// The address and string of a message with one string argument, or nil.
    static func stringMessage(_ bytes: [UInt8]) -> (String, String)? {
        func string(at offset: Int) -> (String, Int)? {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            return (String(decoding: bytes[offset..<end], as: UTF8.self), (end + 4) / 4 * 4)
        }
        guard let (path, next) = string(at: 0), let (tags, after) = string(at: next), tags == ",s",
              let (text, _) = string(at: after) else { return nil }
        return (path, text)
    }
}
