import TestSupport
import Foundation
import Testing

/// Empty and corrupt files made by other programs: one line, a non-zero status, no output —
/// also for MP3, whose decoder would otherwise print its own warnings.
@Suite("detent render: empty and corrupt files")
struct DamagedInputTests {
    /// Flips `count` bytes of `name` from a third of the way in.
    static func damage(_ name: String, into damaged: String, count: Int, in folder: TemporaryFolder) throws {
        var bytes = try folder.bytes(name)
        for i in bytes.count / 3..<bytes.count / 3 + count { bytes[i] ^= 0x55 }
        folder.write(damaged, bytes)
    }

    /// Renders `name` and checks the one line, the status and that nothing was written.
    static func expectRefused(_ name: String, status: Int32 = 65, line: String, in folder: TemporaryFolder,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = folder.names
        let outcome = try Detent.run(["render", name, "-o", "out.wav"], in: folder.path)
        #expect(outcome.status == status, sourceLocation: sourceLocation)
        #expect(outcome.stderr == "detent: " + line + "\n", sourceLocation: sourceLocation)
        #expect(folder.names == before, sourceLocation: sourceLocation)
    }

    @Test("files that hold no audio: FLAC and MP3 from ffmpeg, WAV from sox")
    func empty() throws {
        let folder = TemporaryFolder()
        for name in ["empty.flac", "empty.mp3"] {
            try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=1", "-t", "0", name], in: folder)
        }
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "empty.wav", "trim", "0", "0"], in: folder)
        try Self.expectRefused("empty.flac", line: "empty.flac: holds no audio (0 frames)", in: folder)
        try Self.expectRefused("empty.wav", line: "empty.wav: holds no audio (0 frames)", in: folder)
        try Self.expectRefused("empty.mp3", line: "empty.mp3: cannot read audio: no audio stream found", in: folder)
        let flac = try Detent.run(["render", "empty.flac", "-o", "out.flac"], in: folder.path)
        #expect(flac.status == 65 && !folder.names.contains("out.flac"))
    }

    @Test("a stream shorter than the bytes that tell its format ends (it hung, waiting for more)", arguments: [
        Array("ab".utf8), Array("fL".utf8), [],
    ])
    func shortStream(bytes: [UInt8]) throws {
        let folder = TemporaryFolder()
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", "-", "-o", "out.wav"],
                                           environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                           stdin: bytes)
        #expect(outcome.status.exited == 65)
        #expect(outcome.stderrText.split(separator: "\n").count == 1, "\(outcome.stderrText)")
        #expect(!folder.names.contains("out.wav"))
    }

    @Test("a FLAC file that flac -t rejects")
    func corruptFLAC() throws {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "in.flac", "synth", "2", "noise"], in: folder)
        try Self.damage("in.flac", into: "bad.flac", count: 64, in: folder)
        #expect(try tool("flac", ["-t", "bad.flac"], in: folder, check: false).status.exited != 0)
        let outcome = try Detent.run(["render", "bad.flac", "-o", "out.flac"], in: folder.path)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("detent: bad.flac: corrupt audio data after frame "))
        #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!folder.names.contains("out.flac"))
    }

    @Test("a damaged MP3: one line of Detent's, none of the decoder's")
    func corruptMP3() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=1", "in.mp3"], in: folder)
        try Self.damage("in.mp3", into: "bad.mp3", count: 500, in: folder)
        let outcome = try Detent.run(["render", "bad.mp3", "-o", "out.wav"], in: folder.path)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("detent: bad.mp3: "))
        #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!folder.names.contains("out.wav"))
    }

    @Test("an MP3 rendered to -o out.wav is decoded into WAV's own encoding")
    func mp3ToWAV() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=1", "in.mp3"], in: folder)
        let outcome = try Detent.run(["render", "in.mp3", "-o", "out.wav", "--json"], in: folder.path)
        #expect(outcome.status == 0 && outcome.stderr == "")
        #expect(outcome.stdout.contains("\"format\":\"wav\",\"subtype\":\"float\""))
    }
}
