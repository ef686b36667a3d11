import Foundation
import Testing
@testable import OfflineRender
import Platform
import TestSupport

@Suite("Output names")
struct OutputPlannerTests {
    @Test("beside the input as <stem>.detent.<ext>, the extension following --format")
    func beside() throws {
        #expect(try OutputPlanner.plan(inputs: ["dir/take.1.WAV", "take.aiff"], output: nil, outputFolder: nil, format: nil)
            == [RenderJob(input: "dir/take.1.WAV", output: "dir/take.1.detent.WAV", container: nil),
                RenderJob(input: "take.aiff", output: "take.detent.aiff", container: nil)])
        #expect(try OutputPlanner.plan(inputs: ["/a/take.wav"], output: nil, outputFolder: nil, format: .flac)
            == [RenderJob(input: "/a/take.wav", output: "/a/take.detent.flac", container: .flac)])
    }

    @Test("-o: the path as given; its extension picks the container (and .opus the encoding) unless --format disagrees; an unknown one is refused")
    func explicitOutput() throws {
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.flac", outputFolder: nil, format: nil)
            == [RenderJob(input: "a.wav", output: "b.flac", container: .flac)])
        #expect(throws: AudioFileError.formatNotWritable(path: "b.take", reason:
            "no container is called .take; name the file .wav, .flac, .ogg, … or choose one with --format")) {
            try OutputPlanner.plan(inputs: ["a.wav"], output: "b.take", outputFolder: nil, format: nil)
        }
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.take", outputFolder: nil, format: .flac)
            == [RenderJob(input: "a.wav", output: "b.take", container: .flac)])
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.opus", outputFolder: nil, format: nil)
            == [RenderJob(input: "a.wav", output: "b.opus", container: .opus, subtype: .opus)])
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.opus", outputFolder: nil, format: .ogg)
            == [RenderJob(input: "a.wav", output: "b.opus", container: .ogg, subtype: .opus)])
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.ogg", outputFolder: nil, format: .opus)
            == [RenderJob(input: "a.wav", output: "b.ogg", container: .opus, subtype: .opus)])
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.ogg", outputFolder: nil, format: nil)
            == [RenderJob(input: "a.wav", output: "b.ogg", container: .ogg)])
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.wav", outputFolder: nil, format: .rf64)
            == [RenderJob(input: "a.wav", output: "b.wav", container: .rf64)])
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: "b.wav", outputFolder: nil, format: .wavex)
            == [RenderJob(input: "a.wav", output: "b.wav", container: .wavex)])
        #expect(throws: AudioFileError.formatNotWritable(path: "b.flac", reason: "its extension says flac but --format is wav")) {
            try OutputPlanner.plan(inputs: ["a.wav"], output: "b.flac", outputFolder: nil, format: .wav)
        }
    }

    @Test("--format opus: .opus outputs encoded as Opus, beside the input and in --out-dir")
    func opus() throws {
        let folder = TemporaryFolder()
        #expect(try OutputPlanner.plan(inputs: ["a/x.ogg"], output: nil, outputFolder: nil, format: .opus)
            == [RenderJob(input: "a/x.ogg", output: "a/x.detent.opus", container: .opus, subtype: .opus)])
        #expect(try OutputPlanner.plan(inputs: ["a/x.wav"], output: nil, outputFolder: folder.path, format: .opus)
            == [RenderJob(input: "a/x.wav", output: folder.file("x.opus"), container: .opus, subtype: .opus)])
        #expect(Container(fileExtension: "OPUS") == .opus)
        #expect(Container(code: Container.opus.code) == .ogg, "an Opus file read back is Ogg")
    }

    @Test("--out-dir: the input's name in that folder; two inputs of one name collide")
    func outputFolder() throws {
        let folder = TemporaryFolder()
        #expect(try OutputPlanner.plan(inputs: ["a/x.wav", "b/y.flac"], output: nil, outputFolder: folder.path, format: nil)
            == [RenderJob(input: "a/x.wav", output: folder.file("x.wav"), container: nil),
                RenderJob(input: "b/y.flac", output: folder.file("y.flac"), container: nil)])
        #expect(throws: AudioFileError.outputCollision(path: folder.file("x.wav"), first: "a/x.wav", second: "b/x.wav")) {
            try OutputPlanner.plan(inputs: ["a/x.wav", "b/x.wav"], output: nil, outputFolder: folder.path, format: nil)
        }
        #expect(throws: AudioFileError.outputCollision(path: folder.file("out/x.wav"), first: "a/x.wav", second: "b/x.wav")) {
            try OutputPlanner.plan(inputs: ["a/x.wav", "b/x.wav"], output: nil, outputFolder: folder.file("out"), format: nil)
        }
        #expect(!PathString.exists(folder.file("out")), "a refused batch creates no folder")
    }

    @Test("--out-dir: a missing folder is created with its parents; a file in the way is named")
    func createdFolder() throws {
        let folder = TemporaryFolder()
        #expect(try OutputPlanner.plan(inputs: ["a.wav"], output: nil, outputFolder: folder.file("new/deeper"), format: nil)
            == [RenderJob(input: "a.wav", output: folder.file("new/deeper/a.wav"), container: nil)])
        #expect(PathString.isFolder(folder.file("new/deeper")))
        folder.write("file", text: "")
        #expect(throws: AudioFileError.writeFailed(path: folder.file("file/sub"), reason: folder.file("file") + " exists and is not a folder")) {
            try OutputPlanner.plan(inputs: ["a.wav"], output: nil, outputFolder: folder.file("file/sub"), format: nil)
        }
        #expect(throws: AudioFileError.outputFolderMissing(path: "")) {
            try OutputPlanner.plan(inputs: ["a.wav"], output: nil, outputFolder: "", format: nil)
        }
    }

    @Test("an input without an extension gets its container's")
    func probed() throws {
        let folder = TemporaryFolder()
        let wav = folder.write("in.wav", WAV.float([[0, 0.5, 0]]))
        _ = render(wav, folder.file("take")) { $0.container = .flac }
        #expect(try OutputPlanner.plan(inputs: [folder.file("take")], output: nil, outputFolder: nil, format: nil)
            == [RenderJob(input: folder.file("take"), output: folder.file("take.detent.flac"), container: nil)])
    }

    @Test("path pieces", arguments: [
        ("a/b.wav", "a", "b.wav", "b", "wav"), ("b.wav", ".", "b.wav", "b", "wav"), ("/b", "/", "b", "b", nil),
        (".hidden", ".", ".hidden", ".hidden", nil), ("a/b.", "a", "b.", "b.", nil), ("x.y.z", ".", "x.y.z", "x.y", "z"),
    ] as [(String, String, String, String, String?)])
    func pieces(path: String, folder: String, name: String, stem: String, ext: String?) {
        #expect(PathString.folder(of: path) == folder)
        #expect(PathString.name(of: path) == name)
        #expect(PathString.split(name).stem == stem)
        #expect(PathString.split(name).extension == ext)
    }
}
