import TestSupport
import Foundation
import Testing

/// A write that fails — a full disk, `/dev/full`, a file-size limit — is one line on stderr
/// with the system's reason, status 74, nothing on stdout but `--json`'s objects, and no
/// output file, whatever the encoder: libsndfile's MP3 encoder and every encoder's flush on
/// closing do not report their failed writes themselves.
@Suite("detent render: failed writes")
struct WriteFailureTests {
    /// 20 s of stereo noise, so that even an MP3 or Ogg of it is larger than the small disks below.
    static func scene() throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "in.wav", "synth", "20", "whitenoise", "vol", "0.5"], in: folder)
        return folder
    }

    static let formats = ["mp3", "ogg", "opus", "wav", "flac", "au"]

    @Test("/dev/full: No space left on device, for every encoder", arguments: formats)
    func deviceFull(format: String) throws {
        let folder = try Self.scene()
        let outcome = try Detent.run(["render", "in.wav", "-o", "/dev/full", "--format", format], in: folder.path)
        #expect(outcome.stderr == "detent: /dev/full: cannot write: No space left on device\n")
        #expect(outcome.status == 74)
        #expect(outcome.stdout == "")
    }

    @Test("/dev/full with --json: the error in the object, nothing else on stdout", arguments: formats)
    func deviceFullJSON(format: String) throws {
        let folder = try Self.scene()
        let outcome = try Detent.run(["render", "in.wav", "-o", "/dev/full", "--format", format, "--json"], in: folder.path)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(object?["error"] as? String == "/dev/full: cannot write: No space left on device")
        #expect(object?["exitCode"] as? Int == 74)
        #expect(outcome.stderr == "detent: /dev/full: cannot write: No space left on device\n")
        #expect(outcome.status == 74)
    }

    /// The file-size limit makes writes past 16 KiB fail (EFBIG; SIGXFSZ is ignored so that
    /// the write returns the error instead of killing the process).
    @Test("an MP3 or Ogg output past a file-size limit: File too large, nothing left", arguments: ["mp3", "ogg", "opus"])
    func sizeLimit(format: String) throws {
        let folder = try Self.scene()
        let before = folder.names
        let limited = ["/bin/bash", "-c", "trap '' XFSZ; exec /usr/bin/prlimit --fsize=16384 \"$@\"", "limit"]
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.\(format)", "--json"], in: folder.path, prefix: limited)
        #expect(outcome.stderr == "detent: out.\(format): cannot write: File too large\n")
        #expect(outcome.status == 74)
        #expect(outcome.stdout.contains("\"error\":\"out.\(format): cannot write: File too large\""))
        #expect(folder.names == before)
    }

    /// A real full disk: a 64 KiB tmpfs mounted in a mount namespace of the render's own (so
    /// it vanishes with it), which needs root; what is left in it is listed on stdout.
    static let canMount = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    @Test("a full disk: No space left on device, no file left on it", .enabled(if: InCI.required(canMount), "needs root to mount a small tmpfs"),
          arguments: ["mp3", "ogg", "wav", "flac"])
    func fullDisk(format: String) throws {
        let folder = try Self.scene()
        try FileManager.default.createDirectory(atPath: folder.file("small"), withIntermediateDirectories: false)
        let full = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/bash", "-c",
                    "mount -t tmpfs -o size=64k tmpfs small || exit 99; \"$@\"; status=$?; ls -A small; exit $status", "full"]
        let outcome = try Detent.run(["render", "in.wav", "-o", "small/out.\(format)"], in: folder.path, prefix: full)
        try #require(outcome.status != 99, "cannot mount a tmpfs: \(outcome.stderr)")
        #expect(outcome.stderr == "detent: small/out.\(format): cannot write: No space left on device\n")
        #expect(outcome.status == 74)
        #expect(outcome.stdout == "")  // nothing left on the small disk
    }
}
