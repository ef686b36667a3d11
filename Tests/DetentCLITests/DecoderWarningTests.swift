import Glibc
import TestSupport
import Testing
import OfflineRender

/// What libmpg123 prints by itself while decoding an MP3 stays off stderr: the render's own
/// lines are the only ones there.
@Suite("detent render: decoder warnings")
struct DecoderWarningTests {
    /// Two MP3 files one after the other: the first one's Xing header counts half the bytes,
    /// and libmpg123 says so (`Warning: Xing stream size off by more than 1%, …`).
    func xingSizeOffMP3(in folder: TemporaryFolder) throws -> [UInt8] {
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=3", "one.mp3"], in: folder)
        let one = try folder.bytes("one.mp3")
        return one + one
    }

    @Test("an MP3 whose Xing header is wrong renders with nothing on stderr")
    func xingSizeOff() throws {
        let folder = TemporaryFolder()
        folder.write("two.mp3", try xingSizeOffMP3(in: folder))
        let outcome = try Detent.run(["render", "two.mp3", "-o", "out.wav", "--json"], in: folder.path)
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("\"output\":\"out.wav\""))
    }

    @Test("an MP3 named .wav, and one on stdin, are filtered as well: the file's first bytes decide, not its name")
    func mp3UnderAnotherName() throws {
        let folder = TemporaryFolder()
        let mp3 = try xingSizeOffMP3(in: folder)
        folder.write("two.wav", mp3)
        let named = try Detent.run(["render", "two.wav", "-o", "out.wav"], in: folder.path)
        #expect(named.stderr == "" && named.status == 0)
        let piped = try ChildProcess.run(try BuiltProducts.detent, ["render", "-", "-o", "piped.wav"],
                                         currentDirectory: folder.path, stdin: mp3)
        #expect(piped.stderrText == "" && piped.status.exited == 0)
    }

    @Test("only a regular file with another container's signature is known not to be MPEG")
    func mayPrint() throws {
        let folder = TemporaryFolder()
        for name in ["a.wav", "a.aiff", "a.flac", "a.ogg", "a.au", "a.caf", "a.w64"] {
            try tool("sox", ["-n", "-r", "48000", "-c", "1", folder.file(name), "trim", "0", "0.1"], in: folder)
            #expect(!MPEGDecoderMessages.mayPrint(forInput: folder.file(name)), "\(name)")
        }
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.1", "a.mp3"], in: folder)
        #expect(MPEGDecoderMessages.mayPrint(forInput: folder.file("a.mp3")))
        #expect(MPEGDecoderMessages.mayPrint(forInput: folder.file("missing.wav")))
        #expect(MPEGDecoderMessages.mayPrint(forInput: "/dev/stdin"))
        // A FIFO may carry anything. (It is not even opened: the renders from a FIFO in
        // InterruptTests and ResumeTests fail when it is, their writer losing its reader.)
        let fifo = folder.file("fifo.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(MPEGDecoderMessages.mayPrint(forInput: fifo))
        folder.write("short.wav", [0x52, 0x49])
        #expect(MPEGDecoderMessages.mayPrint(forInput: folder.file("short.wav")))
    }

    @Test("libmpg123's own lines are told from everyone else's")
    func ownLines() {
        #expect(MPEGDecoderMessages.isOwn("Warning: Xing stream size off by more than 1%, fuzzy seeking may be even more fuzzy than by design!\n"))
        #expect(MPEGDecoderMessages.isOwn("Warning: Big change (MPEG version, layer, rate). Frankenstein stream?\n"))
        #expect(MPEGDecoderMessages.isOwn("[src/libmpg123/parse.c:do_readahead():1099] warning: cannot read next header\n"))
        #expect(MPEGDecoderMessages.isOwn("Note: Trying to resync...\n"))
        #expect(!MPEGDecoderMessages.isOwn("Warning: the plug-in could not allocate\n"))
        #expect(!MPEGDecoderMessages.isOwn("Segmentation fault\n"))
    }
}
