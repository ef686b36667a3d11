import TestSupport
import Foundation
import Testing

/// Where `detent render` puts its outputs and what it names them: `--format opus`, a stream
/// into `--out-dir`, a `--out-dir` that does not exist yet; and an input cut short, which
/// must be said to be cut rather than rendered short (or called empty).
@Suite("detent render: output planning")
struct OutputPlanningTests {
    /// What ffprobe says of a file's first audio stream: its codec.
    static func codec(_ name: String, in folder: TemporaryFolder) throws -> String {
        try tool("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", name],
                 in: folder).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `detent` with `bytes` on its stdin (a pipe).
    static func run(_ arguments: [String], stdin bytes: [UInt8], in folder: TemporaryFolder) throws -> ChildProcess.Outcome {
        try ChildProcess.run(try BuiltProducts.detent, arguments, environment: Detent.environment(in: folder.path),
                             currentDirectory: folder.path, stdin: bytes)
    }

    // MARK: --format opus

    @Test("--format opus names Ogg with the Opus codec: with -o, beside the input, in --out-dir, and from a Vorbis input")
    func formatOpus() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 24_000, seed: 1), Signal.noise(frames: 24_000, seed: 2)]))
        for arguments in [["-o", "named.opus"], [], ["--out-dir", "out"], ["-o", "inogg.ogg"]] {
            let outcome = try Detent.run(["render", "in.wav", "--format", "opus"] + arguments, in: folder.path)
            #expect(outcome.status == 0 && outcome.stderr == "", "\(arguments): \(outcome.stderr)")
        }
        for name in ["named.opus", "in.detent.opus", "out/in.opus", "inogg.ogg"] {
            #expect(try Self.codec(name, in: folder) == "opus", "\(name)")
        }
        // Ogg already holding Vorbis: the container stays, the codec is the one asked for.
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5:sample_rate=48000", "-c:a", "libvorbis", "vorbis.ogg"], in: folder)
        let vorbis = try Detent.run(["render", "vorbis.ogg", "--format", "Opus"], in: folder.path)
        #expect(vorbis.status == 0 && vorbis.stderr == "", "\(vorbis.stderr)")
        #expect(try Self.codec("vorbis.detent.opus", in: folder) == "opus")
    }

    @Test("--format opus to a pipe streams Ogg Opus; an output named otherwise is refused as for the other names")
    func formatOpusEdges() throws {
        let folder = TemporaryFolder()
        let input = WAV.float([Signal.noise(frames: 24_000, seed: 3)])
        let piped = try Self.run(["render", "-", "--format", "opus", "-o", "-"], stdin: input, in: folder)
        #expect(piped.status.exited == 0 && piped.stderrText == "", "\(piped.stderrText)")
        folder.write("piped.opus", piped.stdout)
        #expect(try Self.codec("piped.opus", in: folder) == "opus")

        folder.write("in.wav", input)
        let refused = try Detent.run(["render", "in.wav", "--format", "opus", "-o", "x.flac"], in: folder.path)
        #expect(refused.status == 64)
        #expect(refused.stderr == "detent: x.flac: cannot write this format: its extension says flac but --format is opus\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.flac")))
    }

    @Test("help lists opus among the --format names")
    func helpListsOpus() throws {
        let folder = TemporaryFolder()
        let help = try Detent.run(["render", "--help"], in: folder.path)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Output container: wav, wavex, aiff, au, caf, flac, ogg, opus, w64, rf64, mp3."), "\(help.stdout)")
    }

    // MARK: a stream into --out-dir

    @Test("a stream into --out-dir is named stdin.detent.<ext>: WAV when its container cannot be looked at, else as asked")
    func stdinIntoFolder() throws {
        let folder = TemporaryFolder()
        let wav = WAV.float([Signal.noise(frames: 4_000, seed: 4)])
        let plain = try Self.run(["render", "-", "--out-dir", "out"], stdin: wav, in: folder)
        #expect(plain.status.exited == 0 && plain.stderrText == "", "\(plain.stderrText)")
        #expect(try folderContents(folder.file("out")) == ["stdin.detent.wav"])
        #expect(try decode(folder.file("out/stdin.detent.wav")).samples.count == 4_000)

        // FLAC through a pipe: its container is not known when outputs are named, so it is
        // written as WAV, as its name says.
        folder.write("in.wav", wav)
        try tool("ffmpeg", ["-loglevel", "error", "-i", "in.wav", "-c:a", "flac", "-sample_fmt", "s16", "in.flac"], in: folder)
        let flac = try Self.run(["render", "/dev/stdin", "--out-dir", "fromflac"], stdin: try folder.bytes("in.flac"), in: folder)
        #expect(flac.status.exited == 0 && flac.stderrText == "", "\(flac.stderrText)")
        #expect(try folderContents(folder.file("fromflac")) == ["stdin.detent.wav"])
        #expect(try folder.bytes("fromflac/stdin.detent.wav").text(at: 0) == "RIFF")

        let asked = try Self.run(["render", "-", "--out-dir", "asked", "--format", "flac"], stdin: wav, in: folder)
        #expect(asked.status.exited == 0 && asked.stderrText == "", "\(asked.stderrText)")
        #expect(try folderContents(folder.file("asked")) == ["stdin.detent.flac"])
        #expect(try folder.bytes("asked/stdin.detent.flac").text(at: 0) == "fLaC")

        // stdin that is a file underneath (`< in.flac`) is looked at: its container is kept.
        let redirected = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" render - --out-dir kept < in.flac", try BuiltProducts.detent],
                                              environment: Detent.environment(in: folder.path), currentDirectory: folder.path)
        #expect(redirected.status.exited == 0 && redirected.stderrText == "", "\(redirected.stderrText)")
        #expect(try folderContents(folder.file("kept")) == ["stdin.detent.flac"])
    }

    // MARK: --out-dir that does not exist

    @Test("--out-dir creates the folder and its missing parents")
    func createsFolder() throws {
        let folder = TemporaryFolder()
        folder.write("a.wav", WAV.float([Signal.noise(frames: 2_000, seed: 5)]))
        folder.write("b.wav", WAV.float([Signal.noise(frames: 2_000, seed: 6)]))
        let outcome = try Detent.run(["render", "a.wav", "b.wav", "--out-dir", "new/deeper/rendered"], in: folder.path)
        #expect(outcome.status == 0 && outcome.stderr == "", "\(outcome.stderr)")
        #expect(try folderContents(folder.file("new/deeper/rendered")) == ["a.wav", "b.wav"])
        // An existing folder, spelled with a trailing slash, is fine.
        let again = try Detent.run(["render", "a.wav", "--out-dir", "new/", "--format", "flac"], in: folder.path)
        #expect(again.status == 0 && again.stderr == "", "\(again.stderr)")
        #expect(try folderContents(folder.file("new")) == ["a.flac", "deeper"])
    }

    @Test("a file in the way of --out-dir is one line and status 74, and nothing is written", arguments: [
        ("blocked", "detent: blocked: cannot write: blocked exists and is not a folder\n"),
        ("blocked/sub", "detent: blocked/sub: cannot write: blocked exists and is not a folder\n"),
    ])
    func fileInTheWay(outDir: String, message: String) throws {
        let folder = TemporaryFolder()
        folder.write("a.wav", WAV.float([Signal.noise(frames: 2_000, seed: 7)]))
        folder.write("blocked", text: "not a folder")
        let before = folder.names
        let outcome = try Detent.run(["render", "a.wav", "--out-dir", outDir], in: folder.path)
        #expect(outcome.status == 74)
        #expect(outcome.stderr == message)
        #expect(folder.names == before)
    }

    @Test("a folder that cannot be written to is one line naming the folder that failed")
    func noPermission() throws {
        let folder = TemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        folder.write("a.wav", WAV.float([Signal.noise(frames: 2_000, seed: 8)]))
        #expect(mkdir(folder.file("locked"), 0o555) == 0)
        #expect(chmod(folder.file("locked"), 0o555) == 0)
        // Root writes in any folder, so as root the render runs as an unprivileged user.
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let outcome = try Detent.run(["render", "a.wav", "--out-dir", "locked/a/b"], in: folder.path, prefix: prefix)
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "detent: locked/a/b: cannot write: cannot create the folder locked/a: Permission denied\n")
        #expect(try folderContents(folder.file("locked")) == [])
    }

    @Test("a batch refused before rendering (two outputs of one name) creates no folder")
    func refusedBatchMakesNoFolder() throws {
        let folder = TemporaryFolder()
        #expect(mkdir(folder.file("a"), 0o755) == 0 && mkdir(folder.file("b"), 0o755) == 0)
        folder.write("a/x.wav", WAV.float([Signal.noise(frames: 1_000, seed: 9)]))
        folder.write("b/x.wav", WAV.float([Signal.noise(frames: 1_000, seed: 10)]))
        let outcome = try Detent.run(["render", "a/x.wav", "b/x.wav", "--out-dir", "out"], in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "detent: out/x.wav: would be written for both a/x.wav and b/x.wav\n")
        #expect(folder.names == ["a", "b"])
    }

    // MARK: a truncated Ogg file

    /// Byte offsets at which the Ogg pages of `bytes` start.
    static func pages(_ bytes: [UInt8]) -> [Int] {
        (0..<max(0, bytes.count - 4)).filter { bytes[$0] == 0x4F && bytes.text(at: $0) == "OggS" && bytes[$0 + 4] == 0 }
    }

    @Test("an Ogg file cut short is truncated, not empty nor rendered short; whole, it renders", arguments: ["libvorbis", "libopus"])
    func truncatedOgg(codec: String) throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=10:sample_rate=48000", "-c:a", codec, "whole.ogg"],
                 in: folder)
        let bytes = try folder.bytes("whole.ogg")
        let pages = Self.pages(bytes)
        try #require(pages.count > 4)
        let cuts = [
            "inside-headers.ogg": pages[1] + 20,          // in the second header page
            "first-audio.ogg": pages[2] + 30,              // in the first page of audio
            "half.ogg": bytes.count / 2,                   // in the middle
            "at-a-page.ogg": pages[pages.count - 1],      // whole pages, the end-of-stream one missing
            "last-bytes.ogg": bytes.count - 10,            // in the last page
        ]
        for (name, length) in cuts {
            folder.write(name, Array(bytes[..<length]))
            let outcome = try Detent.run(["render", name, "-o", "out-" + name], in: folder.path)
            #expect(outcome.status == 65, "\(name)")
            #expect(outcome.stderr == "detent: \(name): truncated: the Ogg stream breaks off before its end-of-stream page\n")
            #expect(!FileManager.default.fileExists(atPath: folder.file("out-" + name)))
        }
        let whole = try Detent.run(["render", "whole.ogg", "-o", "whole.wav"], in: folder.path)
        #expect(whole.status == 0 && whole.stderr == "", "\(whole.stderr)")
        #expect(abs(try decode(folder.file("whole.wav")).samples.count - 480_000) < 1_000)
    }

    @Test("an Ogg file detent wrote, and one with a stray tag after its last page, read whole")
    func completeOgg() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 48_000, seed: 11)]))
        for name in ["v.ogg", "o.opus"] {
            let written = try Detent.run(["render", "in.wav", "-o", name], in: folder.path)
            #expect(written.status == 0 && written.stderr == "", "\(written.stderr)")
            let back = try Detent.run(["render", name, "-o", name + ".wav"], in: folder.path)
            #expect(back.status == 0 && back.stderr == "", "\(name): \(back.stderr)")
        }
        folder.write("tagged.ogg", try folder.bytes("v.ogg") + Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125))
        let tagged = try Detent.run(["render", "tagged.ogg", "-o", "tagged.wav"], in: folder.path)
        #expect(tagged.status == 0 && tagged.stderr == "", "\(tagged.stderr)")
    }
}
