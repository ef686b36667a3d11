import Parameters
import TestSupport
import Foundation
import Testing
import OfflineRender
import AudioEngine

@Suite("detent render")
struct RenderCommandTests {
    static let stereo = [Signal.noise(frames: 9_000, seed: 1), Signal.noise(frames: 9_000, seed: 2)]

    @Test("renders beside the input, silently when stderr is not a terminal, as the library does")
    func defaultOutput() throws {
        let folder = TemporaryFolder()
        folder.write("take.wav", WAV.float(Self.stereo))
        folder.write("auto.txt", Array("0 cutoff 300\n0.05s cutoff 8k ramp 0.1s\n6000smp gain -6 dB ramp 0\n".utf8))
        let outcome = try Detent.run(["render", "take.wav", "--set", "cutoff=800", "--set", "gain=-3dB",
                                      "--set", "resonance=2", "--automation", "auto.txt"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "")
        #expect(folder.names == ["auto.txt", "take.detent.wav", "take.wav"])

        var settings = RenderSettings()
        settings.startingValues = [.cutoff: 800, .gain: -3, .resonance: 2]
        settings.automation = try Automation.load(path: folder.file("auto.txt"), table: LowpassGain.table)
        _ = try OfflineRenderer.render(input: folder.file("take.wav"), output: folder.file("library.wav"), settings: settings)
        #expect(try folder.bytes("take.detent.wav") == folder.bytes("library.wav"))
    }

    @Test("--preset Default is the table's defaults; a later --set wins over an earlier one")
    func presetAndSet() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float(Self.stereo))
        #expect(try Detent.run(["render", "in.wav", "-o", "a.wav"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "b.wav", "--preset", "Default"], in: folder.path).status == 0)
        #expect(try folder.bytes("a.wav") == folder.bytes("b.wav"))
        #expect(try Detent.run(["render", "in.wav", "-o", "c.wav", "--set", "gain=-12", "--set", "gain=-3"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "d.wav", "--set", "gain=-3"], in: folder.path).status == 0)
        #expect(try folder.bytes("c.wav") == folder.bytes("d.wav"))
        #expect(try folder.bytes("c.wav") != folder.bytes("a.wav"))
    }

    @Test("--preset loads factory presets, user presets and preset files; the user Default is the starting point")
    func presets() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float(Self.stereo))
        // A factory preset sounds exactly like its values given with --set.
        let telephone = try jsonObject(Detent.run(["preset", "show", "Telephone", "--json"], in: folder.path).stdout)
        let values = try #require(telephone["values"] as? [String: Double])
        #expect(try Detent.run(["render", "in.wav", "-o", "p.wav", "--preset", "Telephone"], in: folder.path).status == 0)
        let sets = values.sorted { $0.key < $1.key }.flatMap { ["--set", "\($0.key)=\($0.value)"] }
        #expect(try Detent.run(["render", "in.wav", "-o", "s.wav"] + sets, in: folder.path).status == 0)
        #expect(try folder.bytes("p.wav") == folder.bytes("s.wav"))
        #expect(try folder.bytes("p.wav") != folder.bytes("in.wav"))

        // A user "Default" changes what a render without --preset starts from.
        #expect(try Detent.run(["render", "in.wav", "-o", "before.wav"], in: folder.path).status == 0)
        #expect(try Detent.run(["preset", "save", "Default", "--set", "gain=-12"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "after.wav"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "expected.wav", "--preset", "Telephone", "--set", "cutoff=1k",
                                "--set", "resonance=0.707", "--set", "gain=-12"], in: folder.path).status == 0)
        #expect(try folder.bytes("after.wav") != folder.bytes("before.wav"))
        #expect(try folder.bytes("after.wav") == folder.bytes("expected.wav"))

        // A preset file by path.
        #expect(try Detent.run(["preset", "export", "Telephone", "-o", "mine.json"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "f.wav", "--preset", "./mine.json"], in: folder.path).status == 0)
        #expect(try folder.bytes("f.wav") == folder.bytes("p.wav"))
    }

    @Test("--json prints one summary object per file")
    func json() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float(Self.stereo, sampleRate: 44_100))
        let outcome = try Detent.run(["render", "in.wav", "--json", "--subtype", "pcm24", "--set", "gain=-6"], in: folder.path)
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try jsonObject(lines[0])
        #expect(object["input"] as? String == "in.wav")
        #expect(object["output"] as? String == "in.detent.wav")
        #expect(object["format"] as? String == "wav")
        #expect(object["subtype"] as? String == "pcm24")
        #expect(object["frames"] as? Int == 9_000)
        #expect(object["sampleRate"] as? Int == 44_100)
        #expect(object["channels"] as? Int == 2)
        #expect(object["clipped"] as? Int == 0)
        #expect(object["duration"] as? Double == (9_000.0 / 44_100 * 1e6).rounded() / 1e6)
        #expect((object["seconds"] as? Double ?? -1) >= 0)
        let peak = try decode(folder.file("in.detent.wav")).samples.map(abs).max()!
        #expect(abs((object["peak"] as? Double ?? 0) - Double(peak)) < 1e-6 + 1.0 / 8_388_608)
    }

    @Test("output format: -o's extension, --format and --subtype")
    func formats() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float(Self.stereo))
        #expect(try Detent.run(["render", "in.wav", "-o", "x.flac"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "--format", "aiff", "--subtype", "pcm16"], in: folder.path).status == 0)
        let flac = try decode(folder.file("x.flac")).reader.format
        let aiff = try decode(folder.file("in.detent.aiff")).reader.format
        #expect(flac.container == .flac && flac.subtype == .pcm24)
        #expect(aiff.container == .aiff && aiff.subtype == .pcm16)
    }

    @Test("--no-dither writes exactly the rounded samples; the block size never changes the output")
    func ditherAndBlocks() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float(Self.stereo))
        #expect(try Detent.run(["render", "in.wav", "-o", "f.wav"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "n.wav", "--subtype", "pcm16", "--no-dither"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "d1.wav", "--subtype", "pcm16", "--block-frames", "33"], in: folder.path).status == 0)
        #expect(try Detent.run(["render", "in.wav", "-o", "d2.wav", "--subtype", "pcm16"], in: folder.path).status == 0)
        let float = try decode(folder.file("f.wav")).samples
        let rounded = float.map { Float(min(max((Double($0) * 32_768).rounded(.toNearestOrEven), -32_768), 32_767) / 32_768) }
        #expect(try decode(folder.file("n.wav")).samples == rounded)
        #expect(try folder.bytes("d1.wav") == folder.bytes("d2.wav"))
        #expect(try decode(folder.file("d2.wav")).samples != rounded)
    }

    @Test("several inputs render in parallel into --out-dir; a bad one fails alone, in input order")
    func batch() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        for k in 0..<4 { folder.write("in\(k).wav", WAV.float([Signal.noise(frames: 5_000, seed: UInt64(k))])) }
        folder.write("bad.wav", Array("not audio".utf8))
        let outcome = try Detent.run(["render", "in0.wav", "in1.wav", "bad.wav", "in2.wav", "in3.wav",
                                      "--out-dir", "out", "--jobs", "3", "--json"], in: folder.path)
        #expect(outcome.status == 65)
        #expect(outcome.stderr == "detent: bad.wav: not an audio file (no format libsndfile reads)\n")
        let inputs = outcome.stdout.split(separator: "\n").map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["input"] as? String ?? "?"
        }
        #expect(inputs == ["in0.wav", "in1.wav", "bad.wav", "in2.wav", "in3.wav"])
        #expect(outcome.stdout.contains("\"error\":\"bad.wav: not an audio file (no format libsndfile reads)\",\"exitCode\":65"))
        #expect(try folderContents(folder.file("out")) == ["in0.wav", "in1.wav", "in2.wav", "in3.wav"])
        for k in 0..<4 {
            #expect(try Detent.run(["render", "in\(k).wav", "-o", "single\(k).wav"], in: folder.path).status == 0)
            #expect(try folder.bytes("out/in\(k).wav") == folder.bytes("single\(k).wav"))
        }
    }

    @Test("NaN and infinity render finite, with one warning")
    func nonFinite() throws {
        let folder = TemporaryFolder()
        var x = Signal.noise(frames: 3_000, seed: 5)
        x[100] = .nan
        x[101] = -.infinity
        folder.write("nan.wav", WAV.float([x]))
        let outcome = try Detent.run(["render", "nan.wav"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "detent: warning: nan.wav: NaN or infinite samples (in 1 block) were rendered as silence\n")
        #expect(try decode(folder.file("nan.detent.wav")).samples.allSatisfy { $0.isFinite })
    }

    @Test("clipping is counted, reported once, and in the JSON")
    func clipping() throws {
        let folder = TemporaryFolder()
        folder.write("loud.wav", WAV.float([Signal.noise(frames: 3_000, seed: 6, amplitude: 0.9)]))
        let settings = ["--set", "gain=+12", "--set", "cutoff=20k"]
        #expect(try Detent.run(["render", "loud.wav", "-o", "float.wav"] + settings, in: folder.path).status == 0)
        let outcome = try Detent.run(["render", "loud.wav", "-o", "int.wav", "--subtype", "pcm16", "--no-dither", "--json"] + settings,
                                     in: folder.path)
        // The law: a sample clips when it rounds outside −32768 … 32767.
        let float = try decode(folder.file("float.wav")).samples
        let clipped = float.filter { let r = (Double($0) * 32_768).rounded(.toNearestOrEven); return r > 32_767 || r < -32_768 }.count
        #expect(clipped > 0)
        #expect(outcome.status == 0)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("detent: warning: int.wav: \(clipped) samples clipped (peak +") == true)
        #expect(outcome.stdout.contains("\"clipped\":\(clipped),"))
    }
}

@Suite("Bundled sample")
struct SampleTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples").standardized.path

    @Test("demo.wav is ≤ 10 s of 48 kHz stereo, and renders with the sweep without a warning")
    func demo() throws {
        let folder = TemporaryFolder()
        let outcome = try Detent.run(["render", Self.samples + "/demo.wav", "-o", "demo.wav", "--automation",
                                      Self.samples + "/sweep.txt", "--json"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let object = try jsonObject(outcome.stdout)
        #expect(object["sampleRate"] as? Int == 48_000)
        #expect(object["channels"] as? Int == 2)
        #expect((object["duration"] as? Double ?? 99) <= 10)
        #expect(object["subtype"] as? String == "pcm16")
        #expect(object["automationEvents"] as? Int == 6)
        #expect(object["clipped"] as? Int == 0)
    }
}

@Suite("Rendering from a pipe")
struct PipeTests {
    /// Runs `detent render /dev/stdin -o out.wav --json` with `bytes` on its stdin.
    func renderStream(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> (Int32?, String, String) {
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", "/dev/stdin", "-o", "out.wav", "--json"],
                                           environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                           stdin: bytes)
        return (outcome.status.exited, outcome.stdoutText, outcome.stderrText)
    }

    @Test("a streamed WAV that does not know its length renders all it brings")
    func unknownLength() throws {
        let folder = TemporaryFolder()
        let samples = Signal.noise(frames: 3_000, seed: 4)
        var data: [UInt8] = []
        for x in samples { withUnsafeBytes(of: x.bitPattern.littleEndian) { data += $0 } }
        let (status, stdout, stderr) = try renderStream(
            WAV.bytes(channels: 1, data: data, declaredDataBytes: 0xFFFF_FFFF), in: folder)
        #expect(status == 0)
        #expect(stderr == "")
        #expect(stdout.contains("\"frames\":3000,"))
        #expect(try decode(folder.file("out.wav")).samples.count == 3_000)
    }

    @Test("a stream that ends before its header's length is truncated, and leaves nothing")
    func truncatedStream() throws {
        let folder = TemporaryFolder()
        let bytes = WAV.float([Signal.noise(frames: 3_000, seed: 4)])
        let (status, _, stderr) = try renderStream(Array(bytes.prefix(44 + 4 * 1_000)), in: folder)
        #expect(status == 65)
        #expect(stderr == "detent: /dev/stdin: truncated: the header promises 3000 frames but the data ends after 1000\n")
        #expect(folder.names == [])
    }
}
