import Foundation
import Testing
import TestSupport

/// A preset saved with its plug-ins' state: no save, however it ends, leaves a preset whose
/// state is not whole, nor leftovers the next save does not remove; and no preset file, however
/// it was written, makes `preset delete` or `preset import` touch what is not the preset's.
@Suite("detent: presets with state, saved whole and deleted alone")
struct PresetStateSaveTests {
    static let convolver = PluginStateTests.convoStereo

    /// A short decaying impulse response in `folder`.
    static func impulse(in folder: TemporaryFolder) throws -> String {
        var response = FileParameterTests.noise(600, seed: 7)
        for i in response.indices { response[i] *= Float(exp(-Double(i) / 100)) }
        return try FileParameterTests.wav(response, "ir.wav", in: folder)
    }

    static func presets(_ home: TemporaryFolder) -> String { home.file(".config/detent/presets") }

    @Test("a preset file whose state folder leaves the presets is refused by import: one line, exit 65, nothing written")
    func importRefused() throws {
        let home = TemporaryFolder()
        home.write("evil.json", text: #"{"formatVersion": 1, "name": "Evil", "values": {}, "state": {"folder": "../..", "files": []}}"#)
        let outcome = try Detent.run(["preset", "import", "evil.json"], in: home.path)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains(#""state.folder""#)
                && outcome.stderr.contains(#""../..""#), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: Self.presets(home)))
    }

    @Test("deleting a hand-written preset whose state folder is '../..' removes that preset alone")
    func deleteAlone() throws {
        let home = TemporaryFolder()
        let presets = Self.presets(home)
        try FileManager.default.createDirectory(atPath: presets + "/Other.state", withIntermediateDirectories: true)
        home.write(".config/detent/keep.txt", text: "keep\n")
        home.write(".config/detent/presets/Other.json", text: #"{"formatVersion": 1, "name": "Other", "values": {"cutoff": 500}}"#)
        home.write(".config/detent/presets/Other.state/state.ttl", text: "keep\n")
        home.write(".config/detent/presets/Evil.json",
                   text: #"{"formatVersion": 1, "name": "Evil", "values": {}, "state": {"folder": "../..", "files": []}}"#)
        let outcome = try Detent.run(["preset", "delete", "Evil"], in: home.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try folderContents(presets) == ["Other.json", "Other.state"])
        #expect(FileManager.default.fileExists(atPath: home.file(".config/detent/keep.txt")))
        #expect(FileManager.default.fileExists(atPath: presets + "/Other.state/state.ttl"))
    }

    @Test("a preset whose state folder is gone loads with one warning: its values apply, the state is skipped")
    func missingFolder() throws {
        let home = TemporaryFolder()
        let ir = try Self.impulse(in: home)
        let input = try PluginStateTests.stereoNoise(4_096, in: home)
        let saved = try Detent.run(["preset", "save", "--plugin", Self.convolver, "Room", "--set", "impulse=\(ir)"], in: home.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        try FileManager.default.removeItem(atPath: Self.presets(home) + "/Room.state")
        let outcome = try Detent.run(["render", input.path, "--plugin", Self.convolver, "--preset", "Room", "-o", "out.wav", "--quiet"],
                                     in: home.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: warning: ") && lines[0].contains("Room.state"), "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.file("out.wav")))
    }

    /// Every preset file in `presets` names state folders that are whole: each holds its
    /// `state.ttl` and the files the preset lists. The problems found, none when all is well.
    static func incompleteStates(in presets: String) throws -> [String] {
        var problems: [String] = []
        // (A save killed before the first preset's folder was made leaves none.)
        for name in (try? folderContents(presets)) ?? [] where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let data = try Data(contentsOf: URL(fileURLWithPath: presets + "/" + name))
            guard let preset = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                problems.append("\(name) is not an object")
                continue
            }
            let state = preset["state"] as? [String: Any] ?? [:]
            let slots = (state["slots"] as? [String: [String: Any]]).map { Array($0.values) } ?? [state]
            for slot in slots {
                guard let folder = slot["folder"] as? String else { continue }
                for file in ["state.ttl"] + (slot["files"] as? [String] ?? []) where !FileManager.default.fileExists(atPath: presets + "/" + folder + "/" + file) {
                    problems.append("\(name) names \(folder)/\(file), which is missing")
                }
            }
        }
        return problems
    }

    @Test("saves killed at random points never leave a preset whose state is not whole; the next save clears their leftovers")
    func killedSaves() throws {
        let home = TemporaryFolder()
        let ir = try Self.impulse(in: home)
        let presets = Self.presets(home)
        let save = ["preset", "save", "--plugin", "lp=builtin", "--plugin", "conv=" + Self.convolver, "K",
                    "--set", "conv.impulse=\(ir)", "--set", "lp.cutoff=2k", "--force"]
        // Three whole saves first, timed: the kills fall over the length of one (the median).
        var lengths: [TimeInterval] = []
        for _ in 0..<3 {
            let started = Date()
            let whole = try Detent.run(save, in: home.path)
            #expect(whole.status == 0, "\(whole.stderr)")
            lengths.append(Date().timeIntervalSince(started))
        }
        let length = lengths.sorted()[1]
        var random = SplitMix64(seed: 46)
        var killed = 0
        for round in 0..<60 {
            if round == 30 { try FileManager.default.removeItem(atPath: presets) }  // new presets as well as replaced ones
            let child = try ChildProcess(try BuiltProducts.detent, save, environment: Detent.environment(in: home.path),
                                         currentDirectory: home.path)
            if child.wait(seconds: random.double(in: 0.2...1.0) * length) == nil {
                child.signal(SIGKILL)
                killed += 1
            }
            child.wait()
            let problems = try Self.incompleteStates(in: presets)
            #expect(problems.isEmpty, "round \(round): \(problems)")
            if !problems.isEmpty { break }
        }
        #expect(killed >= 15, "saves are killed midway (\(killed) of 60)")

        let last = try Detent.run(save, in: home.path)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try folderContents(presets) == ["K.json", "K.state"], "the killed saves' leftovers are gone")
        let input = try PluginStateTests.stereoNoise(2_048, in: home)
        let render = try Detent.run(["render", input.path, "--plugin", "lp=builtin", "--plugin", "conv=" + Self.convolver,
                                     "--preset", "K", "-o", "out.wav", "--quiet"], in: home.path)
        // (The convolver talks on stderr; Detent says nothing: no state is missing.)
        #expect(render.status == 0 && !render.stderr.contains("detent:"), "\(render.stderr)")
    }
}
