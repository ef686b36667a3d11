import Foundation
import Testing
import TestSupport
@testable import Platform

/// Removing a folder Detent made (a preset's state), swapping two folders, and telling a killed
/// writer's leftovers from a running writer's temporary files.
@Suite("Folders: removal without following links, exchange, abandoned leftovers")
struct FolderRemovalTests {
    /// A folder `outside` with two files in it, which nothing here may touch.
    private func victim(in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("outside/inner"), withIntermediateDirectories: true)
        folder.write("outside/keep.txt", text: "keep\n")
        folder.write("outside/inner/keep.txt", text: "keep\n")
        return folder.file("outside")
    }

    private func victimIsWhole(_ folder: TemporaryFolder) -> Bool {
        FileManager.default.fileExists(atPath: folder.file("outside/keep.txt"))
            && FileManager.default.fileExists(atPath: folder.file("outside/inner/keep.txt"))
    }

    @Test("a link given as the folder is removed itself; its target's files stay")
    func linkAtTheTop() throws {
        let folder = TemporaryFolder()
        let outside = try victim(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.file("K.state"), withDestinationPath: outside)
        FolderEntries.remove(folder: folder.file("K.state"))
        #expect(FileStatus(entryAt: folder.file("K.state")) == nil)
        #expect(victimIsWhole(folder))
    }

    @Test("links inside are removed, not followed; the folder and its own folders go")
    func linksInside() throws {
        let folder = TemporaryFolder()
        let outside = try victim(in: folder)
        try FileManager.default.createDirectory(atPath: folder.file("K.state/conv"), withIntermediateDirectories: true)
        folder.write("K.state/state.ttl", text: "x\n")
        folder.write("K.state/conv/ir.wav", text: "x\n")
        try FileManager.default.createSymbolicLink(atPath: folder.file("K.state/conv/away"), withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folder.file("K.state/file"), withDestinationPath: outside + "/keep.txt")
        FolderEntries.remove(folder: folder.file("K.state"))
        #expect(FileStatus(entryAt: folder.file("K.state")) == nil)
        #expect(victimIsWhole(folder))
    }

    @Test("two folders exchange their names in one step")
    func exchange() throws {
        let folder = TemporaryFolder()
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
            folder.write(name + "/which", text: name)
        }
        try PathString.exchange(folder.file("a"), folder.file("b"))
        #expect(try String(contentsOfFile: folder.file("a/which"), encoding: .utf8) == "b")
        #expect(try String(contentsOfFile: folder.file("b/which"), encoding: .utf8) == "a")
        #expect(throws: SystemCallError("renameat2", .noSuchFileOrDirectory)) {
            try PathString.exchange(folder.file("a"), folder.file("missing"))
        }
    }

    @Test("leftovers no writer holds are removed, files and folders; a claimed one stays")
    func abandoned() throws {
        let folder = TemporaryFolder()
        folder.write(".K.json.1f3a.tmp", text: "killed\n")
        try FileManager.default.createDirectory(atPath: folder.file(".K.state.partial-1"), withIntermediateDirectories: true)
        folder.write(".K.state.partial-1/state.ttl", text: "killed\n")
        folder.write("K.json", text: "kept\n")
        let claim = try AbandonedEntries.makeFolder(claimed: folder.file(".K.state.partial-2"))
        defer { try? DescriptorIO.close(claim) }
        let held = AbandonedEntries.remove(in: folder.path) { $0.hasPrefix(".K.") }
        #expect(held == [".K.state.partial-2"])
        #expect(folder.names.sorted() == [".K.state.partial-2", "K.json"])
        #expect(throws: SystemCallError("mkdir", .fileExists)) { try AbandonedEntries.makeFolder(claimed: folder.file(".K.state.partial-2")) }
    }

    @Test("a leftover that is a link is removed itself, its target kept")
    func abandonedLink() throws {
        let folder = TemporaryFolder()
        let outside = try victim(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.file(".K.state.partial-1"), withDestinationPath: outside)
        AbandonedEntries.remove(in: folder.path) { $0.hasPrefix(".K.") }
        #expect(victimIsWhole(folder))
    }
}
