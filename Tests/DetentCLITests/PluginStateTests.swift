import OfflineRender
import Foundation
import Testing
import TestSupport

/// LV2 state in presets: a plug-in's own presets that carry `state:state` load whole, and a
/// preset saved with a file parameter keeps the plug-in's state in a folder beside it, with
/// a copy of the file, so the preset renders the same after its folder has moved.
@Suite("detent: LV2 state in presets")
struct PluginStateTests {
    static let zeroStereo = "http://gareus.org/oss/lv2/zeroconvolv#Stereo"
    static let convoStereo = "http://gareus.org/oss/lv2/convoLV2#Stereo"

    /// A stereo float WAV of `frames` of noise (each channel its own seed).
    static func stereoNoise(_ frames: Int, in folder: TemporaryFolder) throws -> (path: String, left: [Float], right: [Float]) {
        let left = FileParameterTests.noise(frames, seed: 11), right = FileParameterTests.noise(frames, seed: 12)
        let l = try FileParameterTests.wav(left, "left.wav", in: folder), r = try FileParameterTests.wav(right, "right.wav", in: folder)
        let path = folder.file("in.wav")
        try tool("sox", ["-M", l, r, "-b", "32", "-e", "floating-point", path], in: folder)
        return (path, left, right)
    }

    func render(_ arguments: [String], in folder: TemporaryFolder, output: String = "out.wav") throws -> [Float] {
        let outcome = try Detent.run(["render"] + arguments + ["-o", output, "--subtype", "float", "--quiet", "--force"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try decode(folder.file(output)).samples
    }

    @Test("zeroconvolv's own 'No-OP Stereo' preset, whose impulse response is in its state, passes the audio")
    func factoryNoOp() throws {
        let folder = TemporaryFolder()
        let input = try Self.stereoNoise(2 * 4_096, in: folder)
        let shown = try Detent.run(["preset", "show", "--json", "--plugin", Self.zeroStereo, "No-OP Stereo"], in: folder.path)
        #expect(shown.stdout.contains(#""preset": "http://gareus.org/oss/lv2/zeroconvolv/pset#noopStereo""#), "\(shown.stdout)")
        let silent = try render([input.path, "--plugin", Self.zeroStereo], in: folder)
        #expect(silent.allSatisfy { $0 == 0 }, "without its state the convolver has no impulse response")
        let output = try render([input.path, "--plugin", Self.zeroStereo, "--preset", "No-OP Stereo"], in: folder)
        #expect(output.count == 2 * input.left.count)
        var worst: Float = 0
        for i in 0..<input.left.count {
            worst = max(worst, abs(output[2 * i] - input.left[i]), abs(output[2 * i + 1] - input.right[i]))
        }
        #expect(worst < 1e-6, "the no-op convolution differs from its input by \(worst)")
    }

    @Test("a preset saved with an impulse response renders the same after its folder moved and the original file went")
    func roundTrip() throws {
        let home = TemporaryFolder(), elsewhere = TemporaryFolder()
        let input = try Self.stereoNoise(3 * 4_096, in: home)
        var response = FileParameterTests.noise(2_400, seed: 5)
        for i in response.indices { response[i] *= Float(exp(-Double(i) / 300)) }
        let ir = try FileParameterTests.wav(response, "hall.wav", in: home)
        let saved = try Detent.run(["preset", "save", "--plugin", Self.convoStereo, "Hall", "--set", "impulse=\(ir)"], in: home.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        let presets = home.file(".config/detent/presets")
        var info = stat()
        #expect(lstat(presets + "/Hall.state/hall.wav", &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "the impulse response is copied")
        let text = try String(contentsOfFile: presets + "/Hall.json", encoding: .utf8)
        #expect(text.contains(#""folder": "Hall.state""#) && !text.contains(home.path), "\(text)")
        let shown = try Detent.run(["preset", "show", "--plugin", Self.convoStereo, "Hall"], in: home.path)
        #expect(shown.stdout.contains("Hall.state (hall.wav)"), "\(shown.stdout)")

        let direct = try render([input.path, "--plugin", Self.convoStereo, "--set", "impulse=\(ir)"], in: home, output: "direct.wav")
        let fromPreset = try render([input.path, "--plugin", Self.convoStereo, "--preset", "Hall"], in: home, output: "preset.wav")
        #expect(direct.contains { $0 != 0 })
        #expect(fromPreset == direct)

        try FileManager.default.createDirectory(atPath: elsewhere.file(".config/detent"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: presets, toPath: elsewhere.file(".config/detent/presets"))
        try FileManager.default.removeItem(atPath: ir)
        try FileManager.default.copyItem(atPath: input.path, toPath: elsewhere.file("in.wav"))
        let moved = try render([elsewhere.file("in.wav"), "--plugin", Self.convoStereo, "--preset", "Hall"], in: elsewhere)
        #expect(moved == direct)
    }

    @Test("a chain's preset keeps each slot's state in a folder of its own; it renders the same after moving, and goes when deleted")
    func chainRoundTrip() throws {
        let home = TemporaryFolder(), elsewhere = TemporaryFolder()
        let input = try Self.stereoNoise(3 * 4_096, in: home)
        func decaying(_ seed: UInt64, _ name: String) throws -> String {
            var response = FileParameterTests.noise(1_200, seed: seed)
            for i in response.indices { response[i] *= Float(exp(-Double(i) / 200)) }
            return try FileParameterTests.wav(response, name, in: home)
        }
        let room = try decaying(8, "room.wav"), hall = try decaying(9, "hall.wav")
        let chain = ["--plugin", "lp=builtin", "--plugin", "a=" + Self.convoStereo, "--plugin", "b=" + Self.convoStereo]
        let sets = ["--set", "a.impulse=\(room)", "--set", "b.impulse=\(hall)", "--set", "lp.cutoff=3k"]
        let saved = try Detent.run(["preset", "save"] + chain + ["Mix"] + sets, in: home.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        let presets = home.file(".config/detent/presets")
        #expect(FileManager.default.fileExists(atPath: presets + "/Mix.state/a/room.wav"))
        #expect(FileManager.default.fileExists(atPath: presets + "/Mix.state/b/hall.wav"))
        let text = try String(contentsOfFile: presets + "/Mix.json", encoding: .utf8)
        #expect(text.contains(#""folder": "Mix.state/a""#) && !text.contains(home.path), "\(text)")
        let shown = try Detent.run(["preset", "show"] + chain + ["Mix"], in: home.path)
        #expect(shown.stdout.contains("a: Mix.state/a (room.wav); b: Mix.state/b (hall.wav)"), "\(shown.stdout)")

        let direct = try render([input.path] + chain + sets, in: home, output: "direct.wav")
        let fromPreset = try render([input.path] + chain + ["--preset", "Mix"], in: home, output: "preset.wav")
        #expect(direct.contains { $0 != 0 })
        #expect(fromPreset == direct)

        try FileManager.default.createDirectory(atPath: elsewhere.file(".config/detent"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: presets, toPath: elsewhere.file(".config/detent/presets"))
        for file in [room, hall] { try FileManager.default.removeItem(atPath: file) }
        try FileManager.default.copyItem(atPath: input.path, toPath: elsewhere.file("in.wav"))
        let moved = try render([elsewhere.file("in.wav")] + chain + ["--preset", "Mix"], in: elsewhere)
        #expect(moved == direct)

        let deleted = try Detent.run(["preset", "delete"] + chain + ["Mix"], in: elsewhere.path)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.file(".config/detent/presets/Mix.state")), "the state folder goes with its preset")
    }

    @Test("a saved state whose file is gone: one line, exit 66, nothing written")
    func missingFile() throws {
        let folder = TemporaryFolder()
        let input = try Self.stereoNoise(4_096, in: folder)
        let ir = try FileParameterTests.wav(FileParameterTests.noise(256, seed: 3), "ir.wav", in: folder)
        let saved = try Detent.run(["preset", "save", "--plugin", Self.convoStereo, "Room", "--set", "impulse=\(ir)"], in: folder.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        try FileManager.default.removeItem(atPath: folder.file(".config/detent/presets/Room.state/ir.wav"))
        let outcome = try Detent.run(["render", input.path, "--plugin", Self.convoStereo, "--preset", "Room", "-o", "out.wav"], in: folder.path)
        #expect(outcome.status == 66)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains("Room.state/ir.wav"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let deleted = try Detent.run(["preset", "delete", "--plugin", Self.convoStereo, "Room"], in: folder.path)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file(".config/detent/presets/Room.state")), "the state folder goes with its preset")
    }
}
