import Foundation
import Testing
import TestSupport

/// A value a plug-in gives one of its own parameters (linked controls, or its own editor)
/// becomes the rig's: the target jumps to it, and typed `get`, `status` and OSC subscribers
/// see it, as they see a typed `set`.
@Suite("A plug-in's own changes")
struct OwnChangeTests {
    /// The plug-in's path, by format.
    static func plugin(_ format: String) throws -> String {
        try (format == "clap" ? LinkedPlugin.clap : LinkedPlugin.vst2).get()
    }

    @Test("a plug-in that moves its own parameter: the rig takes the value, and an OSC subscriber hears it, in process or isolated",
          arguments: ["clap", "vst2"], [false, true])
    func pluginMovesItsOwnParameter(format: String, isolated: Bool) throws {
        let plugin = try Self.plugin(format)
        let server = try JackServer()
        // Isolated, the sandbox reports the plug-in's change through the slot's block, and the
        // host's proxy wakes the supervisor as the plug-in's own bridge does in process.
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--osc", "0", "--plugin", plugin] + (isolated ? ["--isolate"] : []))
        let client = try UDPClient(port: try detent.oscPort())
        defer { client.close() }
        client.send(OSCBytes.message("/detent/subscribe"))
        #expect(try detent.ask("get follow").contains("0.5"))
        _ = try detent.ask("set gain 0.4")
        // The plug-in answers in its next run: follow is half the gain. An isolated slot may
        // still be starting (by design the rig plays on meanwhile: its process finds the
        // plug-in by its file, a scan in a child of its own), which a loaded test run makes
        // take seconds: the bound is longer there, the wait ends as soon as the value comes.
        try waitUntil("the rig takes the plug-in's follow", timeout: isolated ? 30 : 5) {
            (try? detent.ask("get follow"))?.contains("0.2") == true
        }
        // The VST2 build's echo of the gain it was given is not taken for its own change.
        #expect(try detent.ask("get gain").contains("0.4"))
        // Told to subscribers as a typed change is.
        var heard: [String] = []
        while let packet = client.receive(timeoutMilliseconds: 2000) {
            heard.append(String(decoding: packet, as: UTF8.self))
            if heard.last?.contains("/detent/param/follow") == true { break }
        }
        #expect(heard.contains { $0.contains("/detent/param/follow") }, "\(heard)")
        #expect(detent.finish() == 0)
    }
}
