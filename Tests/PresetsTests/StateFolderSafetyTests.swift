import Foundation
import Testing
import TestSupport
import Platform
@testable import Presets

/// A preset's state folder is its own: `NAME.state` beside it. Nothing a preset file says can
/// make loading it read, or deleting it remove, anything else.
@Suite("Presets: a state folder is the preset's own")
struct StateFolderSafetyTests {
    private func preset(name: String = "Evil", folder: String) -> String {
        #"{"formatVersion": 1, "name": "\#(name)", "values": {}, "state": {"folder": \#(folder), "files": []}}"#
    }

    private func chainPreset(slotFolder: String) -> String {
        #"{"formatVersion": 1, "name": "Mix", "values": {}, "state": {"slots": {"conv": {"folder": \#(slotFolder)}}}}"#
    }

    @Test("unsafe folders are refused when the preset is read, naming the field and the folder", arguments: [
        (#""../..""#, "an empty, '.' or '..' part"),
        (#"".""#, "an empty, '.' or '..' part"),
        (#""Evil.state/../../x""#, "an empty, '.' or '..' part"),
        (#""Evil.state/""#, "an empty, '.' or '..' part"),
        (#""/home/someone/.ssh""#, "an absolute path"),
        (#""/tmp/Evil.state""#, "an absolute path"),
        (#""Evil.state\u0000junk""#, "a NUL character in it"),
        (#""presets""#, "a folder not named NAME.state"),
        (#"".state""#, "a folder not named NAME.state"),
        (#""..state""#, "a folder not named NAME.state"),
        (#""Evil.state/conv/deeper""#, "a folder deeper than a slot's inside Evil.state"),
    ])
    func refused(folder: String, problem: String) throws {
        #expect(throws: PresetError(.wrongType(field: "state.folder", expected: "a folder NAME.state beside the preset",
                                               found: "\(folder) (\(problem))"), source: "test.json")) {
            try decode(preset(folder: folder))
        }
    }

    @Test("a chain's slot folder is held to the same rule, named by its field")
    func slotRefused() throws {
        #expect(throws: PresetError(.wrongType(field: "state.slots.conv.folder", expected: "a folder NAME.state beside the preset",
                                               found: #""../Other.state" (an empty, '.' or '..' part)"#), source: "test.json")) {
            try decode(chainPreset(slotFolder: #""../Other.state""#))
        }
    }

    @Test("the folders saves write are read", arguments: [#""Evil.state""#, #""Lo%2FFi.state""#, #""My.Preset.state""#])
    func accepted(folder: String) throws {
        let decoded = try decode(preset(folder: folder))
        #expect(decoded.preset.state?.folders.count == 1)
        #expect(try decode(chainPreset(slotFolder: #""Mix.state/conv""#)).preset.state?.folders == ["Mix.state/conv"])
    }

    @Test("the state folder of a preset file is named after the file", arguments: [
        ("Hall.json", "Hall.state"), ("Lo%2FFi.json", "Lo%2FFi.state"), ("My.Preset.json", "My.Preset.state"),
    ])
    func ownName(file: String, folder: String) {
        #expect(StateFolderPath.name(forPresetFile: file) == folder)
        #expect(StateFolderPath.problem(folder) == nil)
    }

    /// A user folder holding `Evil.json` (with `text`), its own `Evil.state`, another preset's
    /// state and a folder beside the presets.
    private func userFolder(evil text: String) throws -> (store: PresetStore, root: TemporaryFolder) {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        for file in ["Evil.state/state.ttl", "Other.state/state.ttl", "Other.json", "../beside/keep.txt"] {
            try writeFile("keep\n", to: store.userDirectory + "/" + file)
        }
        try writeFile(text, to: store.userDirectory + "/Evil.json")
        return (store, root)
    }

    private func othersAreWhole(_ store: PresetStore) -> Bool {
        ["Other.state/state.ttl", "Other.json", "../beside/keep.txt"].allSatisfy {
            FileManager.default.fileExists(atPath: store.userDirectory + "/" + $0)
        }
    }

    @Test("deleting a preset removes its own state folder alone, whatever its file names",
          arguments: [#""../..""#, #"".""#, #""Other.state""#, #""/tmp""#])
    func deleteRemovesOnlyItsOwn(folder: String) throws {
        let (store, root) = try userFolder(evil: preset(folder: folder))
        defer { withExtendedLifetime(root) {} }
        let deleted = try store.delete(named: "Evil")
        #expect(deleted.path == store.userDirectory + "/Evil.json")
        #expect(try folderContents(store.userDirectory) == ["Other.json", "Other.state"])
        #expect(othersAreWhole(store))
    }

    @Test("a state folder that is a link: deleting the preset removes the link, not its target's files")
    func deleteLink() throws {
        let (store, root) = try userFolder(evil: preset(folder: #""Evil.state""#))
        try FileManager.default.removeItem(atPath: store.userDirectory + "/Evil.state")
        try FileManager.default.createSymbolicLink(atPath: store.userDirectory + "/Evil.state", withDestinationPath: root.file("detent/beside"))
        try store.delete(named: "Evil")
        #expect(try folderContents(store.userDirectory) == ["Other.json", "Other.state"])
        #expect(othersAreWhole(store))
    }

    @Test("importing a preset whose state folder leaves it is refused, and nothing is written")
    func importRefused() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        try writeFile(preset(folder: #""../..""#), to: root.file("evil.json"))
        #expect(throws: PresetError(.wrongType(field: "state.folder", expected: "a folder NAME.state beside the preset",
                                               found: #""../.." (an empty, '.' or '..' part)"#), source: root.file("evil.json"))) {
            try store.importPreset(file: root.file("evil.json"), replacing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: store.userDirectory + "/Evil.json"))
    }
}
