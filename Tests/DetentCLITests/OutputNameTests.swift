import TestSupport
import Foundation
import Testing

/// What names say: control characters in them are shown escaped, and an output's extension
/// either names its container (and, for `.opus`, its encoding) or is refused.
@Suite("detent render: names")
struct OutputNameTests {
    @Test("ESC, newlines and other controls in file names and automation values are escaped on stderr")
    func escaped() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 1_000, seed: 1)]))
        let missing = try Detent.run(["render", "a\u{1B}[31mb\nc.wav"], in: folder.path)
        #expect(missing.status == 74)
        #expect(missing.stderr == "detent: a\\u{1b}[31mb\\u{a}c.wav: cannot open: No such file or directory\n")

        folder.write("auto.txt", text: "0 cutoff 3\u{1B}]0;title\u{7}00\n")
        let automation = try Detent.run(["render", "in.wav", "--automation", "auto.txt"], in: folder.path)
        #expect(automation.status == 65)
        #expect(automation.stderr.hasPrefix("detent: auto.txt:1: "))
        #expect(automation.stderr.contains("3\\u{1b}]0;title\\u{7}00"))
        #expect(!automation.stderr.contains("\u{1B}"))
        #expect(automation.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("-o out.opus writes Opus")
    func opus() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 9_600, seed: 2)]))
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.opus"], in: folder.path)
        #expect(outcome.status == 0 && outcome.stderr == "")
        let codec = try tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", "out.opus"],
                             in: folder).stdoutText
        #expect(codec == "opus\n")
    }

    @Test("an extension that names no container is refused unless --format chooses one")
    func unknownExtension() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 1_000, seed: 3)]))
        let refused = try Detent.run(["render", "in.wav", "-o", "out.xyz"], in: folder.path)
        #expect(refused.status == 64)
        #expect(refused.stderr == "detent: out.xyz: cannot write this format: no container is called .xyz; "
            + "name the file .wav, .flac, .ogg, … or choose one with --format\n")
        #expect(folder.names == ["in.wav"])
        let chosen = try Detent.run(["render", "in.wav", "-o", "out.xyz", "--format", "flac"], in: folder.path)
        #expect(chosen.status == 0)
        #expect(try decode(folder.file("out.xyz")).reader.format.container == .flac)
    }
}
