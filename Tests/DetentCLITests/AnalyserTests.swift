import Foundation
import Testing
import TestSupport

/// Plug-ins with audio in and none out — analysers, and converters that turn audio into MIDI —
/// are hosted: the input passes through untouched (a plug-in's latency moves its MIDI, not the
/// audio it does not touch), and the plug-in adds its output values and its MIDI.
@Suite("detent: analysers and audio-to-MIDI converters")
struct AnalyserTests {
    /// Six 60 Hz bursts of 80 ms, one a second from 0.5 s: bass drum hits, made by sox.
    static func drums(in folder: TemporaryFolder) throws {
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", "drums.wav", "synth", "0.08", "sine", "60",
                         "fade", "0", "0.08", "0.07", "pad", "0.5", "0.42", "repeat", "5"], in: folder)
    }

    @Test("x42's Onset Trigger writes a note for each hit, and the audio passes through unchanged")
    func onsetTrigger() throws {
        let folder = TemporaryFolder()
        try Self.drums(in: folder)
        let outcome = try Detent.run(["render", "drums.wav", "--plugin", "http://gareus.org/oss/lv2/onsettrigger#bassdrum_mono",
                                      "-o", "out.wav", "--midi-out", "hits.mid", "--subtype", "pcm16", "--no-dither", "--quiet"],
                                     in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let input = try tool("sox", ["drums.wav", "-t", "raw", "-"], in: folder).stdout
        #expect(try tool("sox", ["out.wav", "-t", "raw", "-"], in: folder).stdout == input)
        // 960 ticks a quarter note at 120 bpm: hit k at 960 + 1920·k ticks.
        let text = try tool("midicsv", ["hits.mid"], in: folder).stdoutText
        let notes = text.split(separator: "\n").filter { $0.contains("Note_on_c") }
            .map { Int($0.split(separator: ",")[1].trimmingCharacters(in: .whitespaces))! }
        #expect(notes.count == 6, "\(text)")
        for (k, tick) in notes.enumerated() {
            #expect((0...100).contains(tick - (960 + 1_920 * k)), "note \(k) at tick \(tick)")
        }
    }

    @Test("a LADSPA envelope tracker passes the audio through and reports its value")
    func envelopeTracker() throws {
        let folder = TemporaryFolder()
        try Self.drums(in: folder)
        let outcome = try Detent.run(["render", "drums.wav", "--plugin", "ladspa:1078:track_peak", "-o", "out.wav",
                                      "--subtype", "pcm16", "--no-dither", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let input = try tool("sox", ["drums.wav", "-t", "raw", "-"], in: folder).stdout
        #expect(try tool("sox", ["out.wav", "-t", "raw", "-"], in: folder).stdout == input)
        let object = try jsonObject(try #require(outcome.stdout.split(separator: "\n").first))
        #expect((object["outputs"] as? [String: Any])?["output"] is Double)
    }
}
