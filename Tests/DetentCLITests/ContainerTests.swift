import TestSupport
import Foundation
import Testing

/// Containers keep what their input holds: sizes past 4 GiB (RF64) and speaker layouts
/// (WAVE_FORMAT_EXTENSIBLE channel masks), with files made by ffmpeg and read back by ffprobe.
@Suite("detent render: containers")
struct ContainerTests {
    /// ffmpeg's sine source as `channels` channels of `layout`, 16-bit unless told.
    static func surround(_ name: String, layout: String, channels: Int, codec: String = "pcm_s16le",
                         extra: [String] = [], in folder: TemporaryFolder) throws {
        let pan = layout + "|" + (0..<channels).map { "c\($0)=\(0.1 * Double($0 + 1))*c0" }.joined(separator: "|")
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.2:sample_rate=48000", "-af", "pan=" + pan,
                            "-c:a", codec] + extra + [name], in: folder)
    }

    /// What ffprobe says of a file's first stream: channels and layout.
    static func probe(_ name: String, in folder: TemporaryFolder) throws -> String {
        try tool("ffprobe", ["-v", "error", "-show_entries", "stream=channels,channel_layout", "-of", "csv=p=0", name],
                 in: folder).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("an RF64 input stays RF64 as -o x.wav; --format rf64 -o x.wav is RF64")
    func rf64() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.2", "-rf64", "always", "-c:a", "pcm_s24le",
                            "in.wav"], in: folder)
        #expect(try folder.bytes("in.wav").text(at: 0) == "RF64")
        let kept = try Detent.run(["render", "in.wav", "-o", "x.wav"], in: folder.path)
        #expect(kept.status == 0 && kept.stderr == "")
        #expect(try folder.bytes("x.wav").text(at: 0) == "RF64")
        #expect(try decode(folder.file("x.wav")).samples.count == 8_820)

        folder.write("plain.wav", WAV.float([Signal.noise(frames: 2_000, seed: 1)]))
        let asked = try Detent.run(["render", "plain.wav", "--format", "rf64", "-o", "y.wav"], in: folder.path)
        #expect(asked.status == 0 && asked.stderr == "")
        #expect(try folder.bytes("y.wav").text(at: 0) == "RF64")
        #expect(try Self.probe("y.wav", in: folder).hasPrefix("1,"))
    }

    @Test("a WAV stream of unknown length is written as RF64 that becomes WAV when it stays small")
    func streamToWAV() throws {
        let folder = TemporaryFolder()
        let wav = try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "-t", "wav", "-", "synth", "0.5", "sine", "440"],
                           in: folder).stdout
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", "/dev/stdin", "-o", "out.wav"],
                                           environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                           stdin: wav)
        #expect(outcome.status.exited == 0)
        #expect(outcome.stderrText == "")
        let bytes = try folder.bytes("out.wav")
        #expect(bytes.text(at: 0) == "RIFF" && bytes.text(at: 8) == "WAVE")
        #expect(bytes.le32(at: 4) == bytes.count - 8)
        let frames = try tool("soxi", ["-s", "out.wav"], in: folder).stdoutText
        #expect(frames == "24000\n")
    }

    @Test("speaker layouts are kept: 5.1 side and 7.1 through -o x.wav, the default output and RF64",
          arguments: [("5.1(side)", 6, 0x60F), ("7.1", 8, 0x63F), ("quad", 4, 0x33)])
    func layouts(layout: String, channels: Int, mask: Int) throws {
        let folder = TemporaryFolder()
        try Self.surround("in.wav", layout: layout, channels: channels, codec: "pcm_s24le", in: folder)
        for arguments in [["-o", "x.wav"], [], ["--format", "rf64", "-o", "r.wav"], ["-o", "f.wav", "--subtype", "float"]] {
            let outcome = try Detent.run(["render", "in.wav"] + arguments, in: folder.path)
            #expect(outcome.status == 0 && outcome.stderr == "")
        }
        for name in ["x.wav", "in.detent.wav", "r.wav", "f.wav"] {
            let bytes = try folder.bytes(name)
            let fmt = try #require(bytes.chunk("fmt "))
            #expect(bytes.le16(at: fmt) == 0xFFFE, "\(name): WAVE_FORMAT_EXTENSIBLE")
            #expect(bytes.le32(at: fmt + 20) == mask, "\(name): channel mask")
            #expect(try Self.probe(name, in: folder) == "\(channels),\(layout)")
        }
    }

    @Test("a plain PCM WAV of more than two channels is written as WAVE_FORMAT_EXTENSIBLE")
    func extensible() throws {
        let folder = TemporaryFolder()
        let pcm = [UInt8](repeating: 0, count: 6 * 2 * 100)
        folder.write("six.wav", WAV.bytes(formatTag: WAV.pcm, channels: 6, bitsPerSample: 16, data: pcm))
        #expect(try Detent.run(["render", "six.wav", "-o", "out.wav"], in: folder.path).status == 0)
        let bytes = try folder.bytes("out.wav")
        #expect(bytes.le16(at: try #require(bytes.chunk("fmt "))) == 0xFFFE)
        #expect(try Self.probe("out.wav", in: folder).hasPrefix("6,"))
    }
}

/// Streams made by other programs, on a pipe.
@Suite("detent render: streams from other programs")
struct StreamInputTests {
    func render(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> ChildProcess.Outcome {
        try ChildProcess.run(try BuiltProducts.detent, ["render", "/dev/stdin", "-o", "out.wav", "--json"],
                             environment: Detent.environment(in: folder.path), currentDirectory: folder.path, stdin: bytes)
    }

    @Test("sox's WAV of unknown length (0x7FFFF000), flac's and ffmpeg's FLAC render whole",
          arguments: [["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", "-t", "wav", "-", "synth", "0.5", "sine", "440"],
                      ["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", "-t", "flac", "-", "synth", "0.5", "sine", "440"],
                      ["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5:sample_rate=44100", "-ac", "2",
                       "-c:a", "flac", "-f", "flac", "-"]])
    func programs(command: [String]) throws {
        let folder = TemporaryFolder()
        let bytes = try tool(command[0], Array(command.dropFirst()), in: folder).stdout
        let outcome = try render(bytes, in: folder)
        #expect(outcome.status.exited == 0)
        #expect(outcome.stderrText == "")
        #expect(outcome.stdoutText.contains("\"format\":\"wav\""))
        #expect(outcome.stdoutText.contains("\"frames\":22050,"))
        #expect(try tool("soxi", ["-s", "out.wav"], in: folder).stdoutText == "22050\n")
    }

    @Test("a FLAC file from flac, on a pipe")
    func flac() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.pcm16([(0..<4_000).map { Int16(truncatingIfNeeded: $0 * 7) }]))
        try tool("flac", ["--silent", "-o", "in.flac", "in.wav"], in: folder)
        let outcome = try render(try folder.bytes("in.flac"), in: folder)
        #expect(outcome.status.exited == 0 && outcome.stderrText == "")
        #expect(try decode(folder.file("out.wav")).samples.count == 4_000)
    }
}
