import AudioFile
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
}
