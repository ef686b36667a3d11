import OfflineRender
import Foundation
import Testing
import TestSupport

/// A plug-in's `run()` gets at most the block a live host would give it (4096 frames, or
/// `--block`), whatever the blocks files are read in: LSP's delay compensators and samplers,
/// which crashed in their cleanup after runs of 16384 frames, render 10-second files, and the
/// output does not depend on the run length.
@Suite("detent: plug-in block length")
struct PluginBlockTests {
    static let lsp = "http://lsp-plug.in/plugins/lv2/"

    static func noise(_ folder: TemporaryFolder, seconds: Int = 10) throws -> String {
        let path = folder.file("noise.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point", path,
                         "synth", "\(seconds)", "whitenoise", "vol", "0.5"], in: folder)
        return path
    }

    @Test("LSP's delay compensators and samplers render a 10 s file", arguments: [
        "comp_delay_mono", "comp_delay_stereo", "comp_delay_x2_stereo", "sampler_mono", "sampler_stereo",
        "multisampler_x12", "multisampler_x12_do", "multisampler_x24", "multisampler_x24_do",
        "multisampler_x48", "multisampler_x48_do",
    ])
    func lspRenders(plugin: String) throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let outcome = try Detent.run(["render", input, "--plugin", Self.lsp + plugin, "-o", "out.wav", "--quiet"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let reader = try SoundFileReader(path: folder.file("out.wav"))
        #expect(reader.frames == 480_000)
    }

    /// (swh's Butterworth lowpass: it computes its coefficients from the control at each
    /// sample, so its output depends on nothing but the values; x42's EQ, which glides its
    /// own coefficients per run, would not serve.)
    @Test("the run length does not change the output of a deterministic plug-in, moving or not")
    func runLengthInvariance() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder, seconds: 3)
        try "0 cutoff 100 Hz ramp 0\n0.2s cutoff 5k ramp 2s\n".write(
            toFile: folder.file("sweep.txt"), atomically: true, encoding: .utf8)
        var outputs: [[Float]] = []
        for block in ["16", "4096", "65536"] {
            let outcome = try Detent.run(["render", input, "--plugin", "http://plugin.org.uk/swh-plugins/buttlow_iir", "--block", block,
                                          "--automation", "sweep.txt", "-o", "out\(block).wav",
                                          "--subtype", "float", "--quiet"], in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            outputs.append(try decode(folder.file("out\(block).wav")).samples)
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        #expect(outputs[0].contains { abs($0) > 0.1 })
        let bad = try Detent.run(["render", input, "--block", "8", "-o", "x.wav"], in: folder.path)
        #expect(bad.status == 64 && bad.stderr == "detent: --block 8: must be 16 … 65536 frames\n", "\(bad.stderr)")
    }
}
