import TestSupport
import Foundation
import Testing
@testable import OfflineRender
import Platform

/// Outputs appear whole or not at all, and never replace anything they should not.
@Suite("Output safety")
struct OutputSafetyTests {
    static let samples = [Signal.noise(frames: 6_000, seed: 8)]

    @Test("while rendering only a hidden temporary file exists; the output appears when complete")
    func temporaryThenRename() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float(Self.samples))
        let output = folder.file("out.wav")
        var seen: [[String]] = []
        var settings = RenderSettings()
        settings.blockFrames = 2_000
        _ = try OfflineRenderer.render(input: input, output: output, settings: settings, progress: { _ in
            seen.append(folder.names)
        })
        #expect(seen.count == 3)
        for names in seen {
            #expect(names.count == 2 && names[1] == "in.wav")
            #expect(names[0].hasPrefix(".out.wav.detent-"))
        }
        #expect(folder.names == ["in.wav", "out.wav"])
        let mask = umask(0)
        umask(mask)
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == Int(0o666 & ~mask))
    }

    @Test("an existing output is kept without overwrite, and replaced with it")
    func existingOutput() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float(Self.samples))
        let output = folder.write("out.wav", text: "keep me")
        #expect(render(input, output).error == .outputExists(path: output))
        #expect(render(input, output).error?.exitCode == 64)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        #expect(folder.names == ["in.wav", "out.wav"])
        #expect(render(input, output) { $0.overwrite = true }.error == nil)
        #expect(try Decoded(output).channels.count == 1)
        #expect(AudioFileError.outputExists(path: "o.wav").description == "o.wav: already exists (use --force to overwrite it)")
    }

    @Test("the input itself is never the output: same path, a symbolic link, a hard link, another input")
    func outputIsInput() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float(Self.samples))
        let original = try folder.bytes("in.wav")
        try FileManager.default.createSymbolicLink(atPath: folder.file("soft.wav"), withDestinationPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: folder.file("hard.wav"))
        for output in [input, folder.file("soft.wav"), folder.file("hard.wav"), folder.path + "/../" + PathString.name(of: folder.path) + "/in.wav"] {
            let result = render(input, output) { $0.overwrite = true }
            #expect(result.error == .outputIsInput(path: output, input: input))
            #expect(result.error?.exitCode == 64)
        }
        let other = folder.write("other.wav", WAV.float(Self.samples))
        let result = render(other, input) {
            $0.overwrite = true
            $0.protectedFiles = [FileIdentity(path: input)!: .input, FileIdentity(path: other)!: .input]
        }
        // It names the file it would destroy, not this job's own input.
        #expect(result.error == .outputIsRead(path: input, role: .input))
        #expect(result.error?.description == "\(input): is an input of another job of this batch; choose another output")
        #expect(try folder.bytes("in.wav") == original)
        #expect(folder.names == ["hard.wav", "in.wav", "other.wav", "soft.wav"])
    }

    @Test("a missing output folder, and a folder in the output's place")
    func outputFolder() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float(Self.samples))
        #expect(render(input, folder.file("no/out.wav")).error == .outputFolderMissing(path: folder.file("no")))
        #expect(render(input, folder.file("no/out.wav")).error?.exitCode == 74)
        try FileManager.default.createDirectory(atPath: folder.file("dir.wav"), withIntermediateDirectories: false)
        #expect(render(input, folder.file("dir.wav")) { $0.overwrite = true }.error == .writeFailed(path: folder.file("dir.wav"), reason: "is a folder"))
        #expect(folder.names == ["dir.wav", "in.wav"])
    }

    @Test("a format the container cannot hold is refused before anything is written")
    func formatNotWritable() {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float(Self.samples))
        let result = render(input, folder.file("out.flac")) { $0.container = .flac; $0.subtype = .float }
        #expect(result.error == .formatNotWritable(path: folder.file("out.flac"), reason: "flac cannot hold float audio"))
        #expect(result.error?.exitCode == 64)
        #expect(folder.names == ["in.wav"])
    }

    /// libsndfile writes the header when it closes; if it shared its owner's descriptor, a
    /// render failing before that close would let it write into whatever file the system gave
    /// the freed number to next.
    @Test("the writer works on its own descriptor: closing the owner's first loses nothing")
    func writerOwnsItsDescriptor() throws {
        let folder = TemporaryFolder()
        let path = folder.file("out.wav")
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        let writer = try SoundFileWriter(descriptor: fd, path: path, format: AudioFormat(.wav, .float),
                                         sampleRate: 48_000, channels: 1)
        let samples: [Float] = [0.25, -0.5, 0.75]
        try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: 3) }
        #expect(close(fd) == 0)
        try writer.finish()
        #expect(try Decoded(path).channels == [samples])
    }

    @Test("cancelling stops at the next block and removes the unfinished output",
          arguments: [IOThreads.inline, .shared, .separate])
    func cancel(ioThreads: IOThreads) throws {
        let folder = TemporaryFolder()
        let input = folder.write("in.wav", WAV.float(Self.samples))
        var settings = RenderSettings()
        settings.blockFrames = 1_000
        settings.ioThreads = ioThreads
        var blocks = 0
        #expect(throws: AudioFileError.cancelled(input: input, output: folder.file("out.wav"))) {
            try OfflineRenderer.render(input: input, output: folder.file("out.wav"), settings: settings,
                                       progress: { _ in blocks += 1 }, isCancelled: { blocks >= 2 })
        }
        #expect(blocks == 2)
        #expect(folder.names == ["in.wav"])
        #expect(AudioFileError.cancelled(input: "a.wav", output: "b.wav").exitCode == 130)
    }
}
