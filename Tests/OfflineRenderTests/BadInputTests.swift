import TestSupport
import Foundation
import Testing
import Parameters
@testable import OfflineRender

/// Every bad input is one error naming the file and the problem, and leaves nothing behind.
@Suite("Bad inputs")
struct BadInputTests {
    static let frames: [UInt8] = Array(repeating: 0, count: 1_000)  // 250 stereo 16-bit frames

    /// Renders `name` (already in `folder`) and expects `expected`, with only the input left.
    func expectFailure(_ folder: TemporaryFolder, _ name: String, _ expected: AudioFileError, exitCode: Int32,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let before = folder.names
        let result = render(folder.file(name), folder.file("out.wav"))
        #expect(result.error == expected, sourceLocation: sourceLocation)
        #expect(result.error?.exitCode == exitCode, sourceLocation: sourceLocation)
        #expect(folder.names == before, "nothing may be left behind", sourceLocation: sourceLocation)
    }

    @Test("a missing file")
    func missing() {
        let folder = TemporaryFolder()
        expectFailure(folder, "none.wav", .cannotOpen(path: folder.file("none.wav"), reason: "No such file or directory"), exitCode: 74)
    }

    @Test("a folder")
    func folder() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("takes"), withIntermediateDirectories: false)
        expectFailure(folder, "takes", .isDirectory(path: folder.file("takes")), exitCode: 74)
    }

    @Test("text, and an empty file, are not audio")
    func notAudio() {
        let folder = TemporaryFolder()
        _ = folder.write("notes.wav", text: "these are not samples\n")
        _ = folder.write("empty.wav", [])
        expectFailure(folder, "notes.wav", .notAudio(path: folder.file("notes.wav")), exitCode: 65)
        expectFailure(folder, "empty.wav", .notAudio(path: folder.file("empty.wav")), exitCode: 65)
        #expect(AudioFileError.notAudio(path: "n.wav").description == "n.wav: not an audio file (no format libsndfile reads)")
    }

    @Test("a WAV whose data chunk promises more than the file holds is truncated")
    func truncatedWAV() {
        let folder = TemporaryFolder()
        _ = folder.write("cut.wav", WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 16,
                                              data: Self.frames, declaredDataBytes: 4_000))
        expectFailure(folder, "cut.wav", .truncated(path: folder.file("cut.wav"),
                      reason: "the header promises 4000 bytes of audio but the file holds 1000"), exitCode: 65)
        #expect(AudioFileError.truncated(path: "c.wav", reason: "x").description == "c.wav: truncated: x")
    }

    /// A Sun/NeXT AU file: a 24-byte big-endian header (magic, data offset, data size,
    /// encoding 3 = 16-bit linear, rate, channels), then `data`.
    static func au(declaredDataBytes: UInt32, data: [UInt8]) -> [UInt8] {
        func word(_ x: UInt32) -> [UInt8] { withUnsafeBytes(of: x.bigEndian, Array.init) }
        return Array(".snd".utf8) + word(24) + word(declaredDataBytes) + word(3) + word(48_000) + word(2) + data
    }

    @Test("an AU file whose header promises more than the file holds is truncated; an unknown size is not")
    func truncatedAU() {
        let folder = TemporaryFolder()
        _ = folder.write("cut.au", Self.au(declaredDataBytes: 4_000, data: Self.frames))
        expectFailure(folder, "cut.au", .truncated(path: folder.file("cut.au"),
                      reason: "the header promises 4000 bytes of audio but the file holds 1000"), exitCode: 65)
        _ = folder.write("stream.au", Self.au(declaredDataBytes: 0xFFFF_FFFF, data: Self.frames))
        #expect(render(folder.file("stream.au"), folder.file("out.au")).value?.frames == 250)
        _ = folder.write("whole.au", Self.au(declaredDataBytes: 1_000, data: Self.frames))
        #expect(render(folder.file("whole.au"), folder.file("whole.out.au")).value?.frames == 250)
    }

    @Test("a streamed WAV that does not know its length (0xFFFFFFFF) is not truncated")
    func streamedWAV() {
        let folder = TemporaryFolder()
        _ = folder.write("stream.wav", WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 16,
                                                 data: Self.frames, declaredDataBytes: 0xFFFF_FFFF))
        #expect(render(folder.file("stream.wav"), folder.file("out.wav")).value?.frames == 250)
    }

    @Test("a FLAC cut in half fails part-way through decoding, and the partial output is removed",
          arguments: [IOThreads.inline, .shared, .separate])
    func truncatedFLAC(ioThreads: IOThreads) throws {
        let folder = TemporaryFolder()
        let wav = folder.write("in.wav", WAV.float([Signal.noise(frames: 48_000, seed: 1)]))
        _ = render(wav, folder.file("whole.flac")) { $0.container = .flac }
        let whole = try folder.bytes("whole.flac")
        _ = folder.write("half.flac", Array(whole.prefix(whole.count / 2)))
        let before = folder.names
        let result = render(folder.file("half.flac"), folder.file("out.flac")) {
            $0.blockFrames = 1_024
            $0.ioThreads = ioThreads
        }
        guard case .corrupt(let path, let after, let reason)? = result.error else {
            Issue.record("expected a decoding error, got \(result)")
            return
        }
        #expect(path == folder.file("half.flac"))
        #expect(after > 0 && after < 48_000)
        #expect(reason == "flac decoder lost sync")
        #expect(result.error?.exitCode == 65)
        #expect(folder.names == before)
    }

    @Test("impossible header values", arguments: [
        (UInt32(10_000_000), UInt16(2), "impossible sample rate 10000000 Hz in the header (accepted: 1000 … 1536000 Hz)"),
        (UInt32(0), UInt16(2), "impossible sample rate or channel count in the header"),
        (UInt32(48_000), UInt16(0), "Channel count is zero"),
        (UInt32(48_000), UInt16(5_000), "Too many channels specified"),
    ])
    func absurdHeader(rate: UInt32, channels: UInt16, reason: String) {
        let folder = TemporaryFolder()
        _ = folder.write("odd.wav", WAV.bytes(formatTag: WAV.pcm, channels: channels, sampleRate: rate, bitsPerSample: 16, data: Self.frames))
        expectFailure(folder, "odd.wav", .unreadable(path: folder.file("odd.wav"), reason: reason), exitCode: 65)
    }

    @Test("an encoding libsndfile cannot decode (64-bit integer PCM)")
    func unsupportedEncoding() {
        let folder = TemporaryFolder()
        _ = folder.write("wide.wav", WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 64, data: Self.frames))
        expectFailure(folder, "wide.wav", .unreadable(path: folder.file("wide.wav"),
                      reason: "File contains data in an unimplemented format"), exitCode: 65)
    }

    @Test("an automation time that cannot be counted at the file's rate fails that file")
    func automationDoesNotFit() throws {
        let folder = TemporaryFolder()
        let wav = folder.write("in.wav", WAV.float([[0, 0]]))
        let result = render(wav, folder.file("out.wav")) {
            $0.automation = try! AutomationParser.parse("1e300s gain -6", path: "auto.txt", table: LowpassGain.table)
        }
        #expect(result.error == .automationDoesNotFit(path: "auto.txt", input: wav, reason: "line 1: time 1e+300s is too far"))
        #expect(folder.names == ["in.wav"])
    }
}
