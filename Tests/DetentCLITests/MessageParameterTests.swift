import OfflineRender
import Foundation
import Testing
import TestSupport

/// Message parameters (LV2 `patch:writable` properties of a numeric range): the LV2
/// specification's own sampler (lv2-examples' Exampler) lists its `param:gain` as a row and
/// takes it as `patch:Set` messages in its control input, which also carries its notes.
@Suite("detent: message parameters")
struct MessageParameterTests {
    static let sampler = "http://lv2plug.in/plugins/eg-sampler"

    @Test("params lists the sampler's gain property as a row in dB, beside its sample file")
    func listed() throws {
        let folder = TemporaryFolder()
        let outcome = try Detent.run(["params", "--plugin", Self.sampler, "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let gain = try #require(lines.first { $0.contains("\"id\":\"gain\"") }, "\(outcome.stdout)")
        #expect(gain.contains("\"unit\":\"dB\"") && gain.contains("\"min\":-20") && gain.contains("\"max\":20")
                && gain.contains("\"default\":0"), "\(gain)")
        #expect(lines.contains { $0.contains("\"id\":\"sample\"") && $0.contains("\"kind\":\"file\"") }, "\(outcome.stdout)")
    }

    @Test("--set gain=-6 renders the sampler's note 6 dB quieter, sample for sample; +6 twice as loud")
    func gainChangesTheSound() throws {
        let folder = TemporaryFolder()
        try Data(MIDIRenderTests.midiFile([(480, [0x90, 60, 100]), (480, [0x80, 60, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("note.mid")))
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", folder.file("silence.wav"),
                         "trim", "0", "1"], in: folder)
        var outputs: [String: [Float]] = [:]
        for gain in ["0", "-6", "6"] {
            let outcome = try Detent.run(["render", "silence.wav", "--plugin", Self.sampler, "--midi", "note.mid",
                                          "--set", "gain=\(gain)", "-o", "out\(gain).wav", "--quiet"], in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            outputs[gain] = try decode(folder.file("out\(gain).wav")).samples
        }
        let plain = try #require(outputs["0"]), quieter = try #require(outputs["-6"]), louder = try #require(outputs["6"])
        #expect(plain.map(abs).max()! > 0.1, "the note plays")
        for (other, db) in [(quieter, -6.0), (louder, 6.0)] {
            let ratio = Float(pow(10, db / 20))
            let error = zip(plain, other).map { abs($0 * ratio - $1) }.max()!
            #expect(error < 1e-5, "gain \(db) dB: largest difference \(error)")
        }
    }

    @Test("a gain glide is sent once per 8-frame stretch of the engine's grid, from 0 dB to its target")
    func glideOnTheGrid() throws {
        let folder = TemporaryFolder()
        try Data(MIDIRenderTests.midiFile([(480, [0x90, 60, 100]), (960, [0x80, 60, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("note.mid")))
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", folder.file("silence.wav"),
                         "trim", "0", "1.5"], in: folder)
        // The sample: a steady tone, played from the note at 0.5 s (frame 24000).
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", folder.file("tone.wav"),
                         "synth", "1", "sine", "440", "vol", "0.5"], in: folder)
        try "0.6s gain -20 dB ramp 0.1s\n".write(toFile: folder.file("glide.txt"), atomically: true, encoding: .utf8)
        var outputs: [[Float]] = []
        for automation in [[], ["--automation", "glide.txt"]] {
            let outcome = try Detent.run(["render", "silence.wav", "--plugin", Self.sampler, "--midi", "note.mid",
                                          "--set", "sample=tone.wav", "-o", "out\(outputs.count).wav", "--quiet"] + automation,
                                         in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            outputs.append(try decode(folder.file("out\(outputs.count).wav")).samples)
        }
        let (plain, glided) = (outputs[0], outputs[1])
        // The gain each 8-frame stretch got: the ratio of the two renders, the same at every
        // frame of the stretch (frames where the tone is near a zero crossing tell nothing).
        var gains: [Double] = []
        for stretch in stride(from: 28_000, to: 35_200, by: 8) {
            let ratios = (stretch..<stretch + 8).filter { abs(plain[$0]) > 0.05 }.map { Double(glided[$0] / plain[$0]) }
            let gain = try #require(ratios.first)
            #expect(ratios.allSatisfy { abs($0 - gain) < 1e-5 }, "stretch at \(stretch): \(ratios)")
            gains.append(gain)
        }
        // Unity until the glide starts at 0.6 s (frame 28800: its first stretch still holds the
        // start), then a new value in each of the 600 stretches after it, falling, the last
        // (at 0.7 s) on −20 dB.
        let start = (28_800 - 28_000) / 8, end = start + 600
        #expect(gains[...start].allSatisfy { abs($0 - 1) < 1e-5 })
        #expect((start + 1...end).allSatisfy { gains[$0] < gains[$0 - 1] }, "\(gains[start - 2..<start + 8])")
        #expect(gains[end...].allSatisfy { abs($0 - 0.1) < 1e-5 }, "\(gains[end...].prefix(4))")
    }
}
