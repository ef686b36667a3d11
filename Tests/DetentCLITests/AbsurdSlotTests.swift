import Foundation
import Testing
import TestSupport

/// A slot whose plug-in puts out absurd samples (1e30) is that slot's fault alone: it passes
/// its input on, the slots around it play on, and the render names it.
@Suite struct AbsurdSlotTests {
    static func rms(_ samples: [Float]) -> Double {
        (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// Renders a tone through builtin → the fault plug-in (`fault`) → builtin, each builtin
    /// at a 2 kHz cutoff; the output and what was said.
    static func render(fault: Int, in folder: TemporaryFolder) throws -> ([Float], String) {
        var environment: [String: String] = [:]
        environment["LV2_PATH"] = try FaultPlugin.built.get()
        let output = "out\(fault).wav"
        let outcome = try Detent.run(["render", "in.wav", "-o", output, "--plugin", "a=builtin", "--plugin", "f=\(FaultPlugin.uri)",
                                      "--plugin", "b=builtin", "--set", "a.cutoff=2k", "--set", "b.cutoff=2k", "--set", "f.fault=\(fault)"],
                                     in: folder.path, extra: environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return (try decode(folder.file(output)).samples, outcome.stderr)
    }

    @Test func theMiddleSlotsAbsurdOutputCostsItAloneAndIsNamed() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.sine(frequency: 440, frames: 48_000, amplitude: 0.25)]))
        let (clean, _) = try Self.render(fault: 0, in: folder)
        let (faulty, said) = try Self.render(fault: 6, in: folder)
        // The fault plug-in at gain 1 passes its input on as the guard does: the same sound,
        // through both builtins, not silence.
        let level = 20 * log10(Self.rms(faulty) / Self.rms(clean))
        #expect(abs(level) < 1, "\(level) dB against the clean chain")
        #expect(said.contains("slot f put out NaN, infinity or samples beyond ±1e6 in 48000 frames; it passed its input through for them"), "\(said)")
        #expect(faulty.allSatisfy { abs($0) <= 1 })
    }
}
