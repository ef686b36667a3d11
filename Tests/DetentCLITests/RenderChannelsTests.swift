import Foundation
import OfflineRender
import Testing
import TestSupport

/// `render --channels N` with an input file: the chain works in N channels, the input folded
/// to them as a plug-in's main inputs are, and the output has N.
@Suite("render --channels")
struct RenderChannelsTests {
    /// One channel of an interleaved signal.
    static func channel(_ c: Int, of samples: [Float], channels: Int) -> [Float] {
        stride(from: c, to: samples.count, by: channels).map { samples[$0] }
    }

    @Test("a mono file into two channels is the mono render twice; stereo into one is the render of the two's mean, sample for sample")
    func foldsTheInput() throws {
        let folder = TemporaryFolder()
        let left = Signal.noise(frames: 24_000, seed: 41), right = Signal.noise(frames: 24_000, seed: 42)
        let mono = folder.write("mono.wav", WAV.float([left]))
        let stereo = folder.write("stereo.wav", WAV.float([left, right]))
        let mean = folder.write("mean.wav", WAV.float([zip(left, right).map { ($0 + $1) * 0.5 }]))
        let settings = ["--set", "cutoff=700", "--set", "resonance=3"]
        for (input, output, channels) in [(mono, "wide.wav", "2"), (stereo, "narrow.wav", "1"), (mono, "alone.wav", nil),
                                          (mean, "meant.wav", nil)] as [(String, String, String?)] {
            let outcome = try Detent.run(["render", input, "-o", output] + settings + (channels.map { ["--channels", $0] } ?? []),
                                         in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let (wide, wideReader) = try decode(folder.file("wide.wav"))
        let (alone, _) = try decode(folder.file("alone.wav"))
        #expect(wideReader.channels == 2)
        #expect(Self.channel(0, of: wide, channels: 2) == alone && Self.channel(1, of: wide, channels: 2) == alone)
        let (narrow, narrowReader) = try decode(folder.file("narrow.wav"))
        #expect(narrowReader.channels == 1)
        #expect(narrow == (try decode(folder.file("meant.wav"))).samples)
    }

    @Test("--channels out of 1 … 64 is a usage error; --rate still needs a render from MIDI alone")
    func refusals() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float([Signal.noise(frames: 480, seed: 1)]))
        for (arguments, message) in [(["--channels", "0"], "--channels 0: expected 1 … 64"), (["--channels", "65"], "--channels 65: expected 1 … 64"),
                                     (["--rate", "44100"], "--rate is for an instrument rendered from MIDI alone")] {
            let outcome = try Detent.run(["render", input, "-o", "out.wav"] + arguments, in: folder.path)
            #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        }
    }
}
