import Foundation
import Testing
import TestSupport

/// `--dither tpdf|shaped|none` on 16-bit outputs, measured on the files as sox reads them.
@Suite("detent render: dither")
struct DitherTests {
    /// A 1 kHz sine at −70 dBFS, mono 32-bit float made by sox.
    static func quietSine(_ name: String, in folder: TemporaryFolder, rate: Int = 44_100, seconds: Int = 3) throws {
        try tool("sox", ["-n", "-r", "\(rate)", "-c", "1", "-b", "32", "-e", "float", name,
                         "synth", "\(seconds)", "sine", "1000", "vol", "-70dB"], in: folder)
    }

    /// A file's samples as sox decodes them, as floats.
    static func samples(_ name: String, in folder: TemporaryFolder) throws -> [Float] {
        try tool("sox", [name, "-t", "f32", "-L", name + ".f32"], in: folder)
        let bytes = try folder.bytes(name + ".f32")
        return stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
        }
    }

    @Test("shaped: the error against the float render has ≥ 6 dB less power at 1–4 kHz than TPDF's, and more above 15 kHz")
    func errorSpectrum() throws {
        let folder = TemporaryFolder()
        try Self.quietSine("in.wav", in: folder)
        for (name, options) in [("ref.wav", []), ("tpdf.wav", ["--subtype", "pcm16"]),
                                ("shaped.wav", ["--subtype", "pcm16", "--dither", "shaped"])] {
            let outcome = try Detent.run(["render", "in.wav", "-o", name] + options, in: folder.path)
            #expect(outcome.status == 0 && outcome.stderr == "", "\(name): \(outcome.stderr)")
        }
        let reference = try Self.samples("ref.wav", in: folder)
        func errorSpectrum(_ name: String) throws -> Spectrum {
            let rendered = try Self.samples(name, in: folder)
            #expect(rendered.count == reference.count)
            // 2^16 samples from 0.1 s in, in units of 16-bit steps.
            let error = (4_410..<4_410 + 65_536).map { Double(rendered[$0] - reference[$0]) * 32_768 }
            return Spectrum(error, sampleRate: 44_100)
        }
        let (tpdf, shaped) = (try errorSpectrum("tpdf.wav"), try errorSpectrum("shaped.wav"))
        let inBand = tpdf.decibels(from: 1_000, to: 4_000) - shaped.decibels(from: 1_000, to: 4_000)
        let high = shaped.decibels(from: 15_000, to: 22_050) - tpdf.decibels(from: 15_000, to: 22_050)
        #expect(inBand >= 6, "shaped is \(inBand) dB quieter at 1–4 kHz")
        #expect(high >= 6, "shaped is \(high) dB louder above 15 kHz")
    }

    @Test("shaped: digital silence stays exact zeros, before a signal and in a silent file")
    func silence() throws {
        let folder = TemporaryFolder()
        // Written here: sox's automatic dither of its float output reaches into the end of the silence.
        let sine = Signal.sine(frequency: 1_000, frames: 44_100, sampleRate: 44_100, amplitude: 0.000_316)
        folder.write("in.wav", WAV.float([[Float](repeating: 0, count: 22_050) + sine], sampleRate: 44_100))
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "float", "silent.wav", "trim", "0", "1"], in: folder)
        #expect(try Detent.run(["render", "in.wav", "-o", "out.wav", "--subtype", "pcm16", "--dither", "shaped"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "silent.wav", "-o", "s.wav", "--subtype", "pcm16", "--dither", "shaped"], in: folder.path).status == 0)
        let out = try Self.samples("out.wav", in: folder)
        #expect(out.count == 66_150)
        #expect(out[..<22_050].allSatisfy { $0 == 0 }, "the leading half second")
        #expect(out[22_050...].contains { $0 != 0 })
        let silent = try Self.samples("s.wav", in: folder)
        #expect(silent.count == 96_000 && silent.allSatisfy { $0 == 0 })
    }

    @Test("--no-dither is --dither none, tpdf is the default, shaped repeats byte for byte for any block size")
    func modes() throws {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "float", "in.wav", "synth", "1",
                         "sine", "1000", "sine", "1500", "vol", "-60dB"], in: folder)
        let runs: [(String, [String])] = [
            ("default.wav", []), ("tpdf.wav", ["--dither", "tpdf"]), ("none.wav", ["--dither", "none"]),
            ("no-dither.wav", ["--no-dither"]), ("both.wav", ["--no-dither", "--dither", "none"]),
            ("shaped.wav", ["--dither", "SHAPED"]), ("shaped-again.wav", ["--dither", "shaped", "--block-frames", "1000"]),
        ]
        for (name, options) in runs {
            let outcome = try Detent.run(["render", "in.wav", "-o", name, "--subtype", "pcm16"] + options, in: folder.path)
            #expect(outcome.status == 0 && outcome.stderr == "", "\(name): \(outcome.stderr)")
        }
        let bytes = try Dictionary(uniqueKeysWithValues: runs.map { ($0.0, try folder.bytes($0.0)) })
        #expect(bytes["default.wav"] == bytes["tpdf.wav"])
        #expect(bytes["none.wav"] == bytes["no-dither.wav"] && bytes["none.wav"] == bytes["both.wav"])
        #expect(bytes["shaped.wav"] == bytes["shaped-again.wav"])
        #expect(Set([bytes["tpdf.wav"], bytes["none.wav"], bytes["shaped.wav"]]).count == 3)
        // Each channel its own noise.
        let shaped = try Self.samples("shaped.wav", in: folder)
        let left = stride(from: 0, to: shaped.count, by: 2).map { shaped[$0] }
        let right = stride(from: 1, to: shaped.count, by: 2).map { shaped[$0] }
        #expect(left != right)
    }

    @Test("--dither shaped where it does not apply: the file is written, one warning says why", arguments: [
        ("float.wav", [], 44_100, "--dither shaped does not apply to wav float", "none"),
        ("out.flac", ["--subtype", "pcm24"], 44_100, "--dither shaped does not apply to flac pcm24", "none"),
        ("rate.wav", ["--subtype", "pcm16"], 96_000, "shaped dither is for 44.1 and 48 kHz; this 96000 Hz output got plain TPDF", "tpdf"),
    ] as [(String, [String], Int, String, String)])
    func notApplied(output: String, options: [String], rate: Int, warning: String, sameAs: String) throws {
        let folder = TemporaryFolder()
        try Self.quietSine("in.wav", in: folder, rate: rate, seconds: 1)
        let outcome = try Detent.run(["render", "in.wav", "-o", output, "--dither", "shaped"] + options, in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.hasPrefix("detent: warning: \(output): \(warning)"), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        // What it got instead.
        let other = "other." + output.split(separator: ".").last!
        #expect(try Detent.run(["render", "in.wav", "-o", other, "--dither", sameAs] + options, in: folder.path).status == 0)
        #expect(try folder.bytes(output) == folder.bytes(other))
    }
}
