import TestSupport
import Foundation
import Testing

/// Special files as inputs and outputs: written to, never replaced, and never a folder to put
/// an output beside.
@Suite("detent render: streams and special files")
struct StreamOutputTests {
    static func fileType(_ path: String) -> mode_t {
        var s = stat()
        return lstat(path, &s) == 0 ? s.st_mode & S_IFMT : 0
    }

    @Test("/dev/stdin without -o is refused, and nothing is written in /dev")
    func stdinNeedsOutput() throws {
        let folder = TemporaryFolder()
        let before = try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted()
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", "/dev/stdin"],
                                           environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                           stdin: WAV.float([Signal.noise(frames: 1_000, seed: 1)]))
        #expect(outcome.status.exited == 64)
        #expect(outcome.stderrText == "detent: /dev/stdin: is a stream; name the output with -o or --out-dir\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted() == before)
    }

    /// `/dev/shm` is a folder of ordinary files (in memory): an output there is made and
    /// replaced like one anywhere else, not written to as if it were a device.
    @Test("an output in a folder under /dev/shm is an ordinary file", .enabled(if: access("/dev/shm", W_OK) == 0))
    func outputInDevShm() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 5_000, seed: 3)]))
        let shm = "/dev/shm/detent-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: shm) }
        let first = try Detent.run(["render", "in.wav", "-o", "\(shm)/out.wav"], in: folder.path)
        #expect(first.status == 0 && first.stderr == "", "\(first.stderr)")
        #expect(Self.fileType("\(shm)/out.wav") == S_IFREG)
        let again = try Detent.run(["render", "in.wav", "-o", "\(shm)/out.wav"], in: folder.path)
        #expect(again.status != 0 && again.stderr.contains("exists"), "an ordinary file is not replaced without --force: \(again.stderr)")
        #expect(try Detent.run(["render", "in.wav", "-o", "\(shm)/out.wav", "--force"], in: folder.path).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shm) == ["out.wav"])
        #expect(try decode("\(shm)/out.wav").samples.count == 5_000)
    }

    @Test("a FIFO output is written to and stays a FIFO, with or without --force", arguments: [false, true])
    func fifoOutput(force: Bool) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 5_000, seed: 2)]))
        #expect(mkfifo(folder.file("out.au"), 0o600) == 0)
        let reader = try ChildProcess("/usr/bin/timeout", ["20", "/bin/sh", "-c", "cat out.au > copy.au"],
                                      currentDirectory: folder.path)
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.au"] + (force ? ["--force"] : []), in: folder.path)
        #expect(reader.wait().exited == 0)
        #expect(outcome.status == 0 && outcome.stderr == "")
        #expect(Self.fileType(folder.file("out.au")) == S_IFIFO)
        #expect(try decode(folder.file("copy.au")).samples.count == 5_000)
        #expect(!folder.names.contains { $0.hasPrefix(".out.au.detent-") })
    }

    @Test("-o /dev/stdout writes to the pipe; a container that needs its header completed is refused first")
    func stdoutOutput() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 3_000, seed: 3)]))
        let flac = try ChildProcess.run(try BuiltProducts.detent, ["render", "in.wav", "-o", "/dev/stdout", "--format", "au"],
                                        environment: Detent.environment(in: folder.path), currentDirectory: folder.path)
        #expect(flac.status.exited == 0 && flac.stderrText == "")
        folder.write("piped.au", flac.stdout)
        #expect(try decode(folder.file("piped.au")).samples.count == 3_000)
        #expect(Self.fileType("/dev/stdout") == S_IFLNK)

        let wav = try Detent.run(["render", "in.wav", "-o", "/dev/stdout", "--format", "wav"], in: folder.path)
        #expect(wav.status == 64)
        #expect(wav.stdout == "")
        #expect(wav.stderr == "detent: /dev/stdout: cannot write this format: wav cannot be written to a pipe "
            + "(its header is completed at the end); use --format au, ogg, mp3\n")
        #expect(Self.fileType("/dev/stdout") == S_IFLNK)
    }
}

/// `-` for stdin and stdout.
@Suite("detent render: - for stdin and stdout")
struct DashTests {
    func run(_ arguments: [String], stdin: [UInt8], in folder: TemporaryFolder) throws -> ChildProcess.Outcome {
        try ChildProcess.run(try BuiltProducts.detent, arguments, environment: Detent.environment(in: folder.path),
                             currentDirectory: folder.path, stdin: stdin)
    }

    @Test("- reads stdin; -o - writes a container that streams (AU for a WAV input), or the one asked for")
    func pipeline() throws {
        let folder = TemporaryFolder()
        let input = WAV.float([Signal.noise(frames: 4_000, seed: 5), Signal.noise(frames: 4_000, seed: 6)])
        let au = try run(["render", "-", "-o", "-", "--set", "gain=-6"], stdin: input, in: folder)
        #expect(au.status.exited == 0 && au.stderrText == "")
        #expect(Array(au.stdout.prefix(4)) == Array(".snd".utf8))
        folder.write("out.au", au.stdout)
        folder.write("in.wav", input)
        #expect(try Detent.run(["render", "in.wav", "-o", "file.au", "--set", "gain=-6"], in: folder.path).status == 0)
        #expect(try decode(folder.file("out.au")).samples == decode(folder.file("file.au")).samples)

        let ogg = try run(["render", "-", "-o", "-", "--format", "ogg"], stdin: input, in: folder)
        #expect(ogg.status.exited == 0 && Array(ogg.stdout.prefix(4)) == Array("OggS".utf8))
    }

    @Test("-o - and --json would share stdout: refused")
    func jsonConflict() throws {
        let folder = TemporaryFolder()
        let outcome = try run(["render", "-", "-o", "-", "--json"], stdin: [], in: folder)
        #expect(outcome.status.exited == 64)
        #expect(outcome.stderrText == "detent: -o - writes the audio to stdout; --json cannot share it\n")
    }
}
