import TestSupport
import Foundation
import Testing

/// Every bad input: one line on stderr naming the file and the problem, the conventional exit
/// status, nothing on stdout, and no file left behind (no temporary either).
@Suite("detent render: bad inputs")
struct RenderErrorTests {
    static let good = WAV.float([Signal.noise(frames: 2_000, seed: 1)])
    static let pcm = [UInt8](repeating: 0, count: 1_000)

    /// A folder holding a good input, a few bad ones, a subfolder and an existing output.
    static func scene() -> TemporaryFolder {
        let folder = TemporaryFolder()
        folder.write("in.wav", good)
        folder.write("exists.wav", Array("keep".utf8))
        folder.write("text.wav", Array("hello, not audio\n".utf8))
        folder.write("cut.wav", WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 16, data: pcm, declaredDataBytes: 9_000))
        folder.write("wide.wav", WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 64, data: pcm))
        folder.write("fast.wav", WAV.bytes(formatTag: WAV.pcm, channels: 2, sampleRate: 10_000_000, bitsPerSample: 16, data: pcm))
        folder.write("mono0.wav", WAV.bytes(formatTag: WAV.pcm, channels: 0, bitsPerSample: 16, data: pcm))
        folder.write("auto.txt", Array("0 cutoff 300\n1s cutof 400\n".utf8))
        try? FileManager.default.createDirectory(atPath: folder.file("dir"), withIntermediateDirectories: false)
        return folder
    }

    @Test("one line, the right status, nothing left", arguments: [
        (["render", "missing.wav"], 74, "missing.wav: cannot open: No such file or directory"),
        (["render", "dir"], 74, "dir: is a folder, not an audio file"),
        (["render", "text.wav"], 65, "text.wav: not an audio file (no format libsndfile reads)"),
        (["render", "cut.wav"], 65, "cut.wav: truncated: the header promises 9000 bytes of audio but the file holds 1000"),
        (["render", "wide.wav"], 65, "wide.wav: cannot read audio: File contains data in an unimplemented format"),
        (["render", "fast.wav"], 65, "fast.wav: cannot read audio: impossible sample rate 10000000 Hz in the header (accepted: 1000 … 1536000 Hz)"),
        (["render", "mono0.wav"], 65, "mono0.wav: cannot read audio: Channel count is zero"),
        (["render", "in.wav", "-o", "nowhere/out.wav"], 74, "nowhere: no such folder"),
        (["render", "in.wav", "text.wav", "--out-dir", "exists.wav/out"], 74,
         "exists.wav/out: cannot write: exists.wav exists and is not a folder"),
        (["render", "in.wav", "-o", "exists.wav"], 64, "exists.wav: already exists (use --force to overwrite it)"),
        (["render", "in.wav", "-o", "in.wav", "--force"], 64, "in.wav: is the input in.wav itself; choose another output"),
        (["render", "in.wav", "-o", "./dir/../in.wav", "--force"], 64, "./dir/../in.wav: is the input in.wav itself; choose another output"),
        (["render", "in.wav", "--set", "cutoff=loud"], 64,
         "--set 'cutoff=loud': invalid cutoff value 'loud': expected a frequency in Hz (800, 800 Hz, 1.2k, 1.2 kHz)"),
        (["render", "in.wav", "--set", "gain"], 64, "--set 'gain': expected ID=VALUE, got 'gain' (valid ids: cutoff, resonance, gain)"),
        (["render", "in.wav", "--set", "gain=+40"], 64, "--set 'gain=+40': gain value '+40' is out of range (-60.0 dB … +12.0 dB, or -inf for silence)"),
        (["render", "in.wav", "--preset", "Warm"], 64,
         "no preset named 'Warm' (see 'detent preset list')"),
        (["render", "in.wav", "--automation", "auto.txt"], 65, "auto.txt:2: unknown parameter 'cutof' (valid ids: cutoff, resonance, gain)"),
        (["render", "in.wav", "--automation", "none.txt"], 74, "none.txt: cannot open: No such file or directory"),
        (["render", "in.wav", "text.wav", "-o", "x.wav"], 64, "-o names one output, but 2 inputs were given; use --out-dir"),
        (["render", "in.wav", "-o", "x.wav", "--out-dir", "dir"], 64, "use either -o or --out-dir, not both"),
        (["render", "in.wav", "--format", "mp4"], 64,
         "--format 'mp4': unknown (known: wav, wavex, aiff, au, caf, flac, ogg, opus, w64, rf64, mp3)"),
        (["render", "in.wav", "--subtype", "pcm12"], 64,
         "--subtype 'pcm12': unknown (known: pcm8, pcm16, pcm24, pcm32, float, double, ulaw, alaw, vorbis, opus, mp3)"),
        (["render", "in.wav", "--format", "opus", "--subtype", "vorbis"], 64,
         "in.detent.opus: cannot write this format: opus holds Opus audio only, not vorbis (use --format ogg for Ogg vorbis)"),
        (["render", "in.wav", "-o", "x.opus", "--subtype", "vorbis"], 64,
         "x.opus: cannot write this format: opus holds Opus audio only, not vorbis (use --format ogg for Ogg vorbis)"),
        (["render", "in.wav", "--format", "flac", "--subtype", "float"], 64,
         "in.detent.flac: cannot write this format: flac cannot hold float audio"),
        (["render", "in.wav", "-o", "x.flac", "--format", "wav"], 64, "x.flac: cannot write this format: its extension says flac but --format is wav"),
        (["render", "in.wav", "--jobs", "0"], 64, "--jobs 0: must be at least 1"),
        (["render"], 64, "render: no input files (detent render --help)"),
    ] as [([String], Int32, String)])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let folder = Self.scene()
        let before = folder.names
        let outcome = try Detent.run(arguments, in: folder.path)
        #expect(outcome.stderr == "detent: " + message + "\n")
        #expect(outcome.status == status)
        #expect(outcome.stdout == "")
        #expect(folder.names == before)
        #expect(try folder.bytes("exists.wav") == Array("keep".utf8))
    }

    @Test("an unreadable input (no permission) is an I/O error")
    func unreadable() throws {
        let folder = Self.scene()
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.file("in.wav"))
        let before = folder.names
        // Root reads any file, so as root the render runs as an unprivileged user.
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let outcome = try Detent.run(["render", "in.wav"], in: folder.path, prefix: prefix)
        #expect(outcome.stderr == "detent: in.wav: cannot open: Permission denied\n")
        #expect(outcome.status == 74)
        #expect(folder.names == before)
    }
}

@Suite("detent render: failures part-way through")
struct RenderWriteFailureTests {
    /// A write that fails after the render has started — as on a full disk — is reported as
    /// an I/O error, and the partial output is removed, whichever threads read and write. The
    /// file-size limit makes writes past 64 KiB fail (EFBIG; SIGXFSZ is ignored so that the
    /// write returns the error instead of killing the process).
    @Test("a write failing mid-file: one line, status 74, nothing left", arguments: ["0", "1", "2"])
    func writeFails(ioThreads: String) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 96_000, seed: 1), Signal.noise(frames: 96_000, seed: 2)]))
        let before = folder.names
        let limited = ["/bin/bash", "-c", "trap '' XFSZ; exec /usr/bin/prlimit --fsize=65536 \"$@\"", "limit"]
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav", "--block-frames", "1024", "--io-threads", ioThreads],
                                     in: folder.path, prefix: limited)
        #expect(outcome.stderr == "detent: out.wav: cannot write: File too large\n")
        #expect(outcome.status == 74)
        #expect(folder.names == before)
    }
}
