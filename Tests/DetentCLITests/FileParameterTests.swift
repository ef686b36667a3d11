import OfflineRender
import Foundation
import Testing
import TestSupport

/// File parameters (LV2 `patch:writable` properties of range `atom:Path`): x42's convoLV2,
/// which rendered silence without one, loads a generated impulse response through
/// `--set impulse=PATH` and convolves with it.
@Suite("detent: file parameters")
struct FileParameterTests {
    static let mono = "http://gareus.org/oss/lv2/convoLV2#Mono"
    static let stereo = "http://gareus.org/oss/lv2/convoLV2#Stereo"
    /// convoLV2 gives each channel of an impulse response a gain of 0.5 (it logs
    /// "IR chn:1 gain:+0.500"): its output is half the plain convolution.
    static let pluginGain = 0.5
    /// convoLV2 convolves in periods of the host's block length (4096 frames, Detent's longest
    /// `run`) and delays what a shorter run gives it: inputs here last whole periods.
    static let period = 4_096

    /// A float WAV of mono `samples` at 48 kHz, written by sox from raw floats.
    static func wav(_ samples: [Float], _ name: String, in folder: TemporaryFolder) throws -> String {
        let raw = folder.file(name + ".f32")
        try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
        let path = folder.file(name)
        try tool("sox", ["-t", "raw", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", raw,
                         "-b", "32", "-e", "floating-point", path], in: folder)
        return path
    }

    /// How far `output` is from `gain` times the direct convolution of `signal` (followed by
    /// silence) with `response`, over the frames `range`: the error's energy against the
    /// reference's, in dB, and the reference's energy.
    static func convolutionError(_ output: [Float], _ signal: [Float], _ response: [Float], gain: Double,
                                 over range: Range<Int>) -> (db: Double, energy: Double) {
        var error = 0.0, energy = 0.0
        for n in range {
            var sum = 0.0
            for k in max(0, n - signal.count + 1)...min(n, response.count - 1) { sum += gain * Double(response[k]) * Double(signal[n - k]) }
            error += (Double(output[n]) - sum) * (Double(output[n]) - sum)
            energy += sum * sum
        }
        return (10 * log10(max(error, 1e-30) / energy), energy)
    }

    /// Uniform noise in −0.5 … 0.5 from a fixed seed (SplitMix64), so the test is the same every run.
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Float(Double(z >> 11) / Double(1 << 53)) - 0.5
        }
    }

    func render(_ input: String, _ ir: String, plugin: String = Self.mono, extra: [String] = [],
                in folder: TemporaryFolder) throws -> [Float] {
        let outcome = try Detent.run(["render", input, "--plugin", plugin, "--set", "impulse=\(ir)", "-o", "out.wav",
                                      "--subtype", "float", "--quiet", "--force"] + extra, in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try decode(folder.file("out.wav")).samples
    }

    @Test("params lists the impulse response as a file parameter")
    func listed() throws {
        let folder = TemporaryFolder()
        let text = try Detent.run(["params", "--plugin", Self.mono], in: folder.path)
        #expect(text.status == 0, "\(text.stderr)")
        let row = text.stdout.split(separator: "\n").first { $0.hasPrefix("impulse ") }
        #expect(row?.contains("impulse") == true && row?.contains("file") == true, "\(text.stdout)")
        let json = try Detent.run(["params", "--plugin", Self.mono, "--json"], in: folder.path)
        let zero = try Detent.run(["params", "--plugin", "http://gareus.org/oss/lv2/zeroconvolv#CfgStereo"], in: folder.path)
        #expect(zero.stdout.split(separator: "\n").contains { $0.hasPrefix("ir ") && $0.contains("Impulse Response") && $0.contains("file") },
                "\(zero.stdout)")
        #expect(json.stdout.contains(#"{"id":"impulse","name":"impulse","kind":"file","path":null}"#), "\(json.stdout)")
    }

    @Test("a unit impulse delayed by N samples delays the input by N")
    func delayedImpulse() throws {
        let folder = TemporaryFolder()
        let delay = 37
        var impulse = [Float](repeating: 0, count: 64)
        impulse[delay] = 0.5  // (1.0 is clipped by sox's float conversion)
        let ir = try Self.wav(impulse, "delta.wav", in: folder)
        let signal = Self.noise(6 * Self.period, seed: 1)
        let input = try Self.wav(signal, "in.wav", in: folder)
        let output = try render(input, ir, in: folder)
        #expect(output.count == signal.count)
        var worst: Float = 0, at = 0
        for i in 0..<output.count {
            if abs(output[i] - (i >= delay ? Float(0.5 * Self.pluginGain) * signal[i - delay] : 0)) > worst { at = i }
            let expected = i >= delay ? Float(0.5 * Self.pluginGain) * signal[i - delay] : 0
            worst = max(worst, abs(output[i] - expected))
        }
        #expect(worst < 1e-5, "largest difference \(worst) at frame \(at) of \(output.count)")
    }

    @Test("an impulse response set live is kept by a preset saved live: the preset renders with it")
    func liveSavedPresetKeepsTheFile() throws {
        let folder = TemporaryFolder()
        var impulse = [Float](repeating: 0, count: 64)
        impulse[23] = 0.5
        let ir = try Self.wav(impulse, "delta.wav", in: folder)
        let signal = Self.noise(4 * Self.period, seed: 9)
        let input = try Self.wav(signal, "in.wav", in: folder)
        let server = try JackServer()
        let live = try ChildProcess.run(try BuiltProducts.detent,
                                        ["live", "--server", server.name, "--headless", "--channels", "1", "--plugin", Self.mono],
                                        environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                        stdin: Array("set impulse \(ir)\npreset save Delta\nquit\n".utf8))
        server.stop()
        #expect(live.status.exited == 0, "\(live.stderrText)")
        #expect(live.stdoutText.contains("saved preset Delta"), "\(live.stdoutText)")
        let preset = try Detent.run(["render", input, "--plugin", Self.mono, "--preset", "Delta", "-o", "preset.wav",
                                     "--subtype", "float", "--quiet"], in: folder.path)
        #expect(preset.status == 0, "\(preset.stderr)")
        let expected = try render(input, ir, in: folder)
        let output = try decode(folder.file("preset.wav")).samples
        #expect(output == expected, "the preset's render equals --set impulse=\(ir)")
        #expect(output.contains { $0 != 0 })
    }

    @Test("a chain saved live, its slots isolated or not, keeps each slot's file: the preset renders with it after the file went",
          arguments: [false, true])
    func liveSavedChainPresetKeepsEverySlotsFile(isolated: Bool) throws {
        let folder = TemporaryFolder()
        var impulse = [Float](repeating: 0, count: 64)
        impulse[17] = 0.5
        let ir = try Self.wav(impulse, "delta.wav", in: folder)
        let input = try Self.wav(Self.noise(4 * Self.period, seed: 4), "in.wav", in: folder)
        let chain = ["--plugin", "lp=builtin", "--plugin", "conv=" + Self.mono]
        let server = try JackServer()
        let live = try ChildProcess.run(try BuiltProducts.detent,
                                        ["live", "--server", server.name, "--headless", "--channels", "1"] + chain + (isolated ? ["--isolate"] : []),
                                        environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                        stdin: Array("set conv.impulse \(ir)\nset lp.cutoff 2k\npreset save Mix\nquit\n".utf8))
        server.stop()
        #expect(live.status.exited == 0, "\(live.stderrText)")
        #expect(live.stdoutText.contains("saved preset Mix"), "\(live.stdoutText)")
        #expect(FileManager.default.fileExists(atPath: folder.file(".config/detent/presets/Mix.state/conv/delta.wav")), "the slot's file is copied")
        let kept = folder.file("kept.wav")
        try FileManager.default.copyItem(atPath: ir, toPath: kept)
        try FileManager.default.removeItem(atPath: ir)
        let preset = try Detent.run(["render", input] + chain + ["--preset", "Mix", "-o", "preset.wav", "--subtype", "float", "--quiet"],
                                    in: folder.path)
        #expect(preset.status == 0, "\(preset.stderr)")
        let direct = try Detent.run(["render", input] + chain + ["--set", "conv.impulse=\(kept)", "--set", "lp.cutoff=2k",
                                                                 "-o", "direct.wav", "--subtype", "float", "--quiet"], in: folder.path)
        #expect(direct.status == 0, "\(direct.stderr)")
        let output = try decode(folder.file("preset.wav")).samples, expected = try decode(folder.file("direct.wav")).samples
        #expect(output == expected, "the preset's render equals --set conv.impulse=FILE")
        #expect(output.contains { $0 != 0 })
    }

    @Test("a preset's state loaded live is restored, and what a later live save keeps")
    func liveLoadedStateIsSavedAgain() throws {
        let folder = TemporaryFolder()
        var impulse = [Float](repeating: 0, count: 64)
        impulse[31] = 0.5
        let ir = try Self.wav(impulse, "delta.wav", in: folder)
        let input = try Self.wav(Self.noise(4 * Self.period, seed: 5), "in.wav", in: folder)
        let saved = try Detent.run(["preset", "save", "--plugin", Self.mono, "Delta", "--set", "impulse=\(ir)"], in: folder.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        try FileManager.default.removeItem(atPath: ir)
        let server = try JackServer()
        let live = try ChildProcess.run(try BuiltProducts.detent,
                                        ["live", "--server", server.name, "--headless", "--channels", "1", "--plugin", Self.mono],
                                        environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                        stdin: Array("preset load Delta\npreset save Copy\nquit\n".utf8))
        server.stop()
        #expect(live.status.exited == 0, "\(live.stderrText)")
        #expect(live.stdoutText.contains("saved preset Copy"), "\(live.stdoutText)")
        var outputs: [[Float]] = []
        for name in ["Delta", "Copy"] {
            let run = try Detent.run(["render", input, "--plugin", Self.mono, "--preset", name, "-o", "\(name).wav", "--subtype", "float", "--quiet"],
                                     in: folder.path)
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(try decode(folder.file("\(name).wav")).samples)
        }
        #expect(outputs[0] == outputs[1], "the live save keeps the state the load restored")
        #expect(outputs[1].contains { $0 != 0 })
    }

    /// LSP's plug-ins describe their file ports under a URI they do not answer to
    /// (`http://lsp-plug.in//ports#ifn`); the file is sent to the one they do, and loads. LSP
    /// takes it over its first two runs with frames, which Detent gives it on silence before
    /// the audio: the whole output, from its first frame, is the convolution within LSP's FFT
    /// precision (−70 dB), at any block length.
    @Test("LSP's impulse-response loader takes its file: the wet output is the convolution from the first frame",
          arguments: [nil, 512])
    func lspImpulseResponses(block: Int?) throws {
        let folder = TemporaryFolder()
        let response = Self.noise(64, seed: 7)
        let ir = try Self.wav(response, "ir.wav", in: folder)
        let signal = Self.noise(4 * Self.period, seed: 8)
        let input = try Self.wav(signal, "in.wav", in: folder)
        let outcome = try Detent.run(["render", input, "--plugin", "http://lsp-plug.in/plugins/lv2/impulse_responses_mono",
                                      "--set", "ifn=\(ir)", "--set", "cs=Left", "--set", "dry=0", "-o", "out.wav",
                                      "--subtype", "float", "--quiet"] + (block.map { ["--block", "\($0)"] } ?? []),
                                     in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let output = try decode(folder.file("out.wav")).samples
        #expect(output.count == signal.count)
        let (db, energy) = Self.convolutionError(output, signal, response, gain: 1, over: 0..<output.count)
        #expect(energy > 0.1 && db < -70, "error \(db) dB")
        let (start, _) = Self.convolutionError(output, signal, response, gain: 1, over: 0..<2_048)
        #expect(start < -70, "error over the first 2048 frames \(start) dB")
    }

    @Test("each slot of a chain loads its own file: SLOT.ID=PATH")
    func chain() throws {
        let folder = TemporaryFolder()
        var impulse = [Float](repeating: 0, count: 64)
        impulse[10] = 0.5
        let ir = try Self.wav(impulse, "delta.wav", in: folder)
        let signal = Self.noise(4 * Self.period, seed: 6)
        let input = try Self.wav(signal, "in.wav", in: folder)
        let outcome = try Detent.run(["render", input, "--plugin", "a=" + Self.mono, "--plugin", "b=" + Self.mono,
                                      "--set", "a.impulse=\(ir)", "--set", "B.impulse=delta.wav", "-o", "out.wav",
                                      "--subtype", "float", "--quiet"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let output = try decode(folder.file("out.wav")).samples
        let gain = Float(0.25 * Self.pluginGain * Self.pluginGain)
        var worst: Float = 0
        for i in 0..<output.count { worst = max(worst, abs(output[i] - (i >= 20 ? gain * signal[i - 20] : 0))) }
        #expect(output.count == signal.count && worst < 1e-6, "largest difference \(worst)")
    }

    /// convoLV2 convolves in blocks of the length it is told (4096 frames offline, a
    /// coarse-block plug-in): the last, shorter block of a file is padded with silence, so
    /// the output matches the reference to its last frame — with a tail after it too.
    @Test("a decaying noise impulse response equals a direct convolution within -90 dB, to the last frame",
          arguments: [(3 * 4_096, 0), (48_000, 0), (50_000, 1_440)])
    func noiseResponse(frames: Int, tail: Int) throws {
        let folder = TemporaryFolder()
        let length = 2_000
        let decay = Self.noise(length, seed: 2).enumerated().map { $1 * Float(exp(-Double($0) / 300)) }
        let ir = try Self.wav(decay, "noise-ir.wav", in: folder)
        let signal = Self.noise(frames, seed: 3)
        let input = try Self.wav(signal, "in.wav", in: folder)
        let output = try render(input, ir, extra: tail > 0 ? ["--tail", "\(tail / 48)ms"] : [], in: folder)
        #expect(output.count == signal.count + tail)
        func decibels(_ range: Range<Int>) -> (db: Double, energy: Double) {
            Self.convolutionError(output, signal, decay, gain: Self.pluginGain, over: range)
        }
        let whole = decibels(0..<output.count), end = decibels(output.count - 1_000..<output.count)
        #expect(whole.energy > 0.1 && whole.db < -90, "error \(whole.db) dB")
        #expect(end.energy > 0 && end.db < -90, "error \(end.db) dB over the last 1000 frames")
    }

    @Test("a stereo convolver renders the same every time")
    func deterministic() throws {
        let folder = TemporaryFolder()
        let ir = try Self.wav(Self.noise(4_800, seed: 4).enumerated().map { $1 * Float(exp(-Double($0) / 800)) }, "ir.wav", in: folder)
        let input = folder.file("in.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point", input,
                         "synth", "2", "whitenoise", "vol", "0.5"], in: folder)
        let first = try render(input, ir, plugin: Self.stereo, in: folder)
        let second = try render(input, ir, plugin: Self.stereo, in: folder)
        #expect(first == second)
        #expect(first.contains { abs($0) > 0.01 })
    }

    @Test("a missing or unreadable impulse response is one line, exit 66, and nothing written")
    func missing() throws {
        let folder = TemporaryFolder()
        let input = try Self.wav(Self.noise(4_800, seed: 5), "in.wav", in: folder)
        let outcome = try Detent.run(["render", input, "--plugin", Self.mono, "--set", "impulse=gone.wav", "-o", "out.wav"],
                                     in: folder.path)
        #expect(outcome.status == 66)
        #expect(outcome.stderr == "detent: --set 'impulse=gone.wav': cannot read 'gone.wav': No such file or directory\n",
                "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let directory = try Detent.run(["render", input, "--plugin", Self.mono, "--set", "impulse=.", "-o", "out.wav"],
                                       in: folder.path)
        #expect(directory.status == 66 && directory.stderr == "detent: --set 'impulse=.': '.' is not a file\n", "\(directory.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test("an impulse response that is no sound (text, or an empty WAV) is one line, exit 65, and nothing written")
    func notSound() throws {
        let folder = TemporaryFolder()
        let input = try Self.wav(Self.noise(4_800, seed: 6), "in.wav", in: folder)
        folder.write("notes.txt", text: "not audio\n")
        let text = try Detent.run(["render", input, "--plugin", Self.mono, "--set", "impulse=notes.txt", "-o", "out.wav"],
                                  in: folder.path)
        #expect(text.status == 65)
        #expect(text.stderr == "detent: --set 'impulse=notes.txt': \(folder.path)/notes.txt: not an audio file (no format libsndfile reads)\n",
                "\(text.stderr)")
        let empty = try Self.wav([], "empty.wav", in: folder)
        let silent = try Detent.run(["render", input, "--plugin", Self.mono, "--set", "impulse=\(empty)", "-o", "out.wav"],
                                    in: folder.path)
        #expect(silent.status == 65 && silent.stderr.hasSuffix("empty.wav: holds no audio (0 frames)\n"), "\(silent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
