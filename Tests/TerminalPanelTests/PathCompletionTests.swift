import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// Tab in the file prompt completes a path as a shell does, from a real folder.
@Suite struct PathCompletionTests {
    /// A folder with `hall.wav`, `hall-long.flac`, `plate.wav`, a hidden `.draft.wav` and a
    /// folder `rooms` holding `small.wav`.
    static func folder() throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        for name in ["hall.wav", "hall-long.flac", "plate.wav", ".draft.wav"] { folder.write(name, text: "") }
        try FileManager.default.createDirectory(atPath: folder.file("rooms"), withIntermediateDirectories: false)
        folder.write("rooms/small.wav", text: "")
        return folder
    }

    @Test func aUniqueNameIsCompletedAndAFolderGetsItsSlash() throws {
        let folder = try Self.folder()
        #expect(PathCompletion.complete("pl", currentFolder: folder.path) == PathCompletion(text: "plate.wav", candidates: []))
        #expect(PathCompletion.complete("ro", currentFolder: folder.path) == PathCompletion(text: "rooms/", candidates: []))
        #expect(PathCompletion.complete("rooms/s", currentFolder: folder.path) == PathCompletion(text: "rooms/small.wav", candidates: []))
        #expect(PathCompletion.complete(folder.path + "/pl").text == folder.path + "/plate.wav")
    }

    @Test func severalNamesCompleteAsFarAsTheyAgreeAndAreOffered() throws {
        let folder = try Self.folder()
        #expect(PathCompletion.complete("h", currentFolder: folder.path)
            == PathCompletion(text: "hall", candidates: ["hall-long.flac", "hall.wav"]))
        #expect(PathCompletion.complete("", currentFolder: folder.path).candidates == ["hall-long.flac", "hall.wav", "plate.wav", "rooms"])
    }

    @Test func hiddenNamesOnlyWhenADotIsTyped() throws {
        let folder = try Self.folder()
        #expect(PathCompletion.complete(".", currentFolder: folder.path).text == ".draft.wav")
    }

    @Test func theHomeFolderStaysTilde() throws {
        let folder = try Self.folder()
        #expect(PathCompletion.complete("~/pl", home: folder.path) == PathCompletion(text: "~/plate.wav", candidates: []))
    }

    @Test func nothingMatchingLeavesTheTextAsTyped() throws {
        let folder = try Self.folder()
        #expect(PathCompletion.complete("zz", currentFolder: folder.path) == PathCompletion(text: "zz", candidates: []))
        #expect(PathCompletion.complete("missing/zz", currentFolder: folder.path) == PathCompletion(text: "missing/zz", candidates: []))
    }
}
