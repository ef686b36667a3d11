import Foundation
import Testing
import TestSupport

/// `--quality`, `--bitrate` and `--compression`, checked on the files by ffprobe and flac.
@Suite("detent render: encoder settings")
struct EncoderOptionTests {
    /// Three seconds of 48 kHz stereo made by sox: pink noise under two tones, material whose
    /// size an encoder's settings change.
    static func scene(bits: Int = 16) throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "\(bits)", "in.wav", "synth", "3", "pinknoise",
                         "sine", "440", "sine", "1250", "vol", "0.3"], in: folder)
        return folder
    }

    /// ffprobe's answer for `entries` of a file, one `key=value` per line.
    static func probe(_ name: String, _ entries: String, in folder: TemporaryFolder) throws -> [String: String] {
        let text = try tool("ffprobe", ["-v", "error", "-show_entries", entries, "-of", "default=nw=1", name], in: folder).stdoutText
        return Dictionary(text.split(separator: "\n").compactMap { line in
            line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
        }, uniquingKeysWith: { first, _ in first })
    }

    static func size(_ name: String, in folder: TemporaryFolder) throws -> Int { try folder.bytes(name).count }

    @Test("a lower --quality gives a smaller file, which ffprobe reads back whole",
          arguments: [("ogg", "vorbis"), ("opus", "opus"), ("mp3", "mp3")])
    func quality(ext: String, codec: String) throws {
        let folder = try Self.scene()
        for q in ["0.1", "0.9"] {
            let outcome = try Detent.run(["render", "in.wav", "-o", "q\(q).\(ext)", "--quality", q], in: folder.path)
            #expect(outcome.status == 0 && outcome.stderr == "", "\(outcome.stderr)")
            let info = try Self.probe("q\(q).\(ext)", "stream=codec_name:format=duration", in: folder)
            #expect(info["codec_name"] == codec)
            #expect(abs((Double(info["duration"] ?? "") ?? 0) - 3) < 0.1, "\(info)")
        }
        let (low, high) = (try Self.size("q0.1.\(ext)", in: folder), try Self.size("q0.9.\(ext)", in: folder))
        #expect(Double(low) < 0.6 * Double(high), "\(ext): \(low) bytes at quality 0.1, \(high) at 0.9")
    }

    @Test("--bitrate: MP3 at that constant rate, every frame the same size")
    func mp3Bitrate() throws {
        let folder = try Self.scene()
        for rate in [64, 192] {
            #expect(try Detent.run(["render", "in.wav", "-o", "b\(rate).mp3", "--bitrate", "\(rate)"], in: folder.path).status == 0)
            #expect(try Self.probe("b\(rate).mp3", "stream=bit_rate", in: folder)["bit_rate"] == "\(rate * 1_000)")
            // At 48 kHz a frame of 1152 samples (24 ms) at K kbit/s is 3·K bytes, with no padding.
            let sizes = try tool("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=size",
                                             "-of", "default=nw=1:nk=1", "b\(rate).mp3"], in: folder).stdoutText.split(separator: "\n")
            #expect(sizes.count > 100 && Set(sizes) == ["\(rate * 3)"], "\(Set(sizes))")
        }
    }

    @Test("--bitrate: Opus near that target rate")
    func opusBitrate() throws {
        let folder = try Self.scene()
        for rate in [32, 128] {
            #expect(try Detent.run(["render", "in.wav", "-o", "b\(rate).opus", "--bitrate", "\(rate)"], in: folder.path).status == 0)
            let info = try Self.probe("b\(rate).opus", "stream=codec_name:format=bit_rate", in: folder)
            #expect(info["codec_name"] == "opus")
            let measured = Double(info["bit_rate"] ?? "") ?? 0
            #expect(abs(measured / Double(rate * 1_000) - 1) < 0.2, "\(rate) kbit/s asked, \(measured) bit/s measured")
        }
    }

    @Test("--compression changes FLAC's size, never its samples: flac -t passes and the decoded PCM is the WAV render's")
    func flacCompression() throws {
        let folder = try Self.scene()
        #expect(try Detent.run(["render", "in.wav", "-o", "ref.wav"], in: folder.path).status == 0)
        for level in ["0", "8"] {
            let outcome = try Detent.run(["render", "in.wav", "-o", "c\(level).flac", "--compression", level], in: folder.path)
            #expect(outcome.status == 0 && outcome.stderr == "", "\(outcome.stderr)")
            try tool("flac", ["-t", "-s", "c\(level).flac"], in: folder)
            try tool("flac", ["-d", "-s", "--force-raw-format", "--endian=little", "--sign=signed", "-o", "c\(level).raw", "c\(level).flac"], in: folder)
        }
        try tool("sox", ["ref.wav", "-t", "raw", "-e", "signed", "-b", "16", "-L", "ref.raw"], in: folder)
        let reference = try folder.bytes("ref.raw")
        #expect(reference.count == 3 * 48_000 * 2 * 2)
        #expect(try folder.bytes("c0.raw") == reference)
        #expect(try folder.bytes("c8.raw") == reference)
        let (fast, small) = (try Self.size("c0.flac", in: folder), try Self.size("c8.flac", in: folder))
        #expect(small < fast, "level 8: \(small) bytes, level 0: \(fast)")
    }

    /// `--json` says what each output was written with: the dither it got (none where none
    /// applies) and the encoder settings asked for.
    @Test("--json reports the dither and the encoder settings", arguments: [
        (["-o", "a.wav"], "tpdf", nil, nil, nil),
        (["-o", "b.wav", "--dither", "shaped"], "shaped", nil, nil, nil),
        (["-o", "c.wav", "--no-dither"], "none", nil, nil, nil),
        (["-o", "d.wav", "--subtype", "float"], nil, nil, nil, nil),
        (["-o", "e.ogg", "--quality", "0.25"], nil, 0.25, nil, nil),
        (["-o", "f.mp3", "--bitrate", "128"], nil, nil, 128, nil),
        (["-o", "g.flac", "--compression", "8"], "tpdf", nil, nil, 8),
    ] as [([String], String?, Double?, Int?, Int?)])
    func reported(arguments: [String], dither: String?, quality: Double?, bitrate: Int?, compression: Int?) throws {
        let folder = try Self.scene()
        let outcome = try Detent.run(["render", "in.wav", "--json"] + arguments, in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let summary = try jsonObject(outcome.stdout)
        #expect(summary["dither"] as? String == dither, "\(summary)")
        #expect(summary["quality"] as? Double == quality)
        #expect(summary["bitrate"] as? Int == bitrate)
        #expect(summary["compression"] as? Int == compression)
    }

    @Test("a setting the output cannot use, or a bad value: one line, status 64, nothing written", arguments: [
        (["-o", "out.wav", "--compression", "5"], "--compression applies to FLAC outputs, not wav pcm16"),
        (["-o", "out.ogg", "--compression", "5"], "--compression applies to FLAC outputs, not ogg vorbis"),
        (["-o", "out.flac", "--quality", "0.5"], "--quality applies to Vorbis, Opus and MP3 outputs, not flac pcm16"),
        (["-o", "out.wav", "--quality", "0.5"], "--quality applies to Vorbis, Opus and MP3 outputs, not wav pcm16"),
        (["-o", "out.ogg", "--bitrate", "128"], "libsndfile encodes Vorbis by quality alone"),
        (["-o", "out.flac", "--bitrate", "128"], "--bitrate applies to MP3 and Opus outputs"),
        (["-o", "out.mp3", "--bitrate", "100"], "--bitrate 100: MP3 at 48000 Hz takes 32, 40"),
        (["-o", "out.opus", "--bitrate", "600"], "--bitrate 600: Opus takes 12 … 512 kbit/s"),
        (["-o", "out.ogg", "--quality", "1.5"], "--quality 1.5"),
        (["-o", "out.ogg", "--quality=-0.1"], "--quality -0.1"),
        (["-o", "out.ogg", "--quality", "nan"], "--quality nan"),
        (["-o", "out.ogg", "--quality", "good"], "'good'"),
        (["-o", "out.mp3", "--bitrate", "0"], "--bitrate 0"),
        (["-o", "out.mp3", "--bitrate", "128k"], "'128k'"),
        (["-o", "out.flac", "--compression", "9"], "--compression 9"),
        (["-o", "out.flac", "--compression", "0.5"], "'0.5'"),
        (["-o", "out.mp3", "--quality", "0.5", "--bitrate", "128"], "--quality and --bitrate"),
    ] as [([String], String)])
    func refused(arguments: [String], names: String) throws {
        let folder = try Self.scene()
        let before = folder.names
        let outcome = try Detent.run(["render", "in.wav"] + arguments, in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.hasSuffix("\n"), "one line: \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("detent: ") && outcome.stderr.contains(names), "\(outcome.stderr)")
        #expect(outcome.stdout == "")
        #expect(folder.names == before)
    }
}
