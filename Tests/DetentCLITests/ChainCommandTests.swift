import OfflineRender
import Foundation
import Testing
import TestSupport

/// Chains on the command line: repeated `--plugin` (and `builtin`), `NAME=URI` slot names,
/// `SLOT.ID` parameters, `--chain FILE` and chain presets, with real plug-ins from four Debian
/// packages, each chain held to the same processors rendered one after another.
@Suite("detent: chains")
struct ChainCommandTests {
    static let eq = "http://gareus.org/oss/lv2/fil4#stereo"         // x42-plugins
    static let overdrive = "http://drobilla.net/plugins/mda/Overdrive"  // mda-lv2
    static let compressor = "urn:zamaudio:ZamCompX2"                // zam-plugins
    static let limiter = "http://gareus.org/oss/lv2/dpl#stereo"     // x42-plugins, 64 frames of latency

    /// Renders `input` to `output` with `arguments`, expecting success.
    static func render(_ input: String, _ output: String, _ arguments: [String], in folder: TemporaryFolder,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = try Detent.run(["render", input, "-o", output, "--subtype", "float", "--quiet", "--json"] + arguments,
                                     in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        return outcome.stdout
    }

    /// The largest difference between two files' samples, which must be as long.
    static func difference(_ a: String, _ b: String, droppingLast: Int = 0,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Float {
        let (x, readerX) = try decode(a)
        let (y, _) = try decode(b)
        try #require(x.count == y.count, "\(x.count) against \(y.count) samples", sourceLocation: sourceLocation)
        var worst: Float = 0
        for i in 0..<(x.count - droppingLast * readerX.channels) { worst = max(worst, abs(x[i] - y[i])) }
        return worst
    }

    static func noise(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("noise.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point", path,
                         "synth", "3", "pinknoise", "vol", "0.6"], in: folder)
        return path
    }

    @Test("a chain of four plug-ins from three packages equals rendering them one after another; its latency is compensated")
    func fourPlugins() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let chain = try Self.render(input, "chain.wav", [
            "--plugin", Self.eq, "--plugin", "drive=\(Self.overdrive)", "--plugin", Self.compressor, "--plugin", Self.limiter,
            "--set", "fil4-stereo.gain=6", "--set", "drive.drive=0.6", "--set", "zamcompx2.thr=-30",
            "--set", "dpl-stereo.threshold=-6",
        ], in: folder)
        #expect(chain.contains("\"latency\":64"))
        var step = input
        for (i, (plugin, set)) in [(Self.eq, "gain=6"), (Self.overdrive, "drive=0.6"), (Self.compressor, "thr=-30"),
                                   (Self.limiter, "threshold=-6")].enumerated() {
            _ = try Self.render(step, "step\(i).wav", ["--plugin", plugin, "--set", set], in: folder)
            step = folder.file("step\(i).wav")
        }
        // One after another, the limiter's input ends where the file does; in the chain, the
        // slots before it ring on into its 64 frames of look-ahead. Everything else is equal.
        #expect(try Self.difference(folder.file("chain.wav"), step, droppingLast: 64) == 0)
        let (samples, reader) = try decode(folder.file("chain.wav"))
        #expect(reader.frames == 144_000 && samples.contains { abs($0) > 0.1 })
    }

    @Test("the built-in takes a place in a chain by name, before or after a plug-in, and the order matters")
    func builtInEitherSide() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        _ = try Self.render(input, "before.wav", ["--plugin", "builtin", "--plugin", Self.overdrive,
                                                  "--set", "builtin.cutoff=400", "--set", "overdrive.drive=0.9"], in: folder)
        _ = try Self.render(input, "after.wav", ["--plugin", Self.overdrive, "--plugin", "builtin",
                                                 "--set", "builtin.cutoff=400", "--set", "overdrive.drive=0.9"], in: folder)
        _ = try Self.render(input, "lp.wav", ["--set", "cutoff=400"], in: folder)
        _ = try Self.render(folder.file("lp.wav"), "lp-od.wav", ["--plugin", Self.overdrive, "--set", "drive=0.9"], in: folder)
        _ = try Self.render(input, "od.wav", ["--plugin", Self.overdrive, "--set", "drive=0.9"], in: folder)
        _ = try Self.render(folder.file("od.wav"), "od-lp.wav", ["--set", "cutoff=400"], in: folder)
        #expect(try Self.difference(folder.file("before.wav"), folder.file("lp-od.wav")) == 0)
        #expect(try Self.difference(folder.file("after.wav"), folder.file("od-lp.wav")) == 0)
        #expect(try Self.difference(folder.file("before.wav"), folder.file("after.wav")) > 0.01)
    }

    @Test("params lists a chain's rows as SLOT.ID; a single processor keeps its plain ids")
    func params() throws {
        let folder = TemporaryFolder()
        let chain = try Detent.run(["params", "--plugin", "lp=builtin", "--plugin", Self.overdrive, "--json"], in: folder.path)
        #expect(chain.status == 0)
        let ids = chain.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["lp.bypass", "lp.mix", "lp.cutoff", "lp.resonance", "lp.gain",
                        "overdrive.bypass", "overdrive.mix", "overdrive.drive", "overdrive.muffle", "overdrive.output"])
        let single = try Detent.run(["params", "--plugin", "eq=\(Self.overdrive)"], in: folder.path)
        #expect(single.stdout.contains("\ndrive ") && !single.stdout.contains("eq."))
    }

    @Test("a chain preset holds every slot: saved, it renders the same as the command line, and another chain refuses it")
    func presetRoundTrip() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let plugins = ["--plugin", "builtin", "--plugin", Self.overdrive]
        let saved = try Detent.run(["preset", "save", "Crunch"] + plugins + ["--set", "builtin.cutoff=2k", "--set", "overdrive.drive=0.7",
                                                                             "--set", "overdrive.bypass=on"], in: folder.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        let file = folder.path + "/.config/detent/presets/Crunch.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("builtin=detent:lowpass-gain overdrive=\(Self.overdrive)") && text.contains("overdrive.drive"))
        _ = try Self.render(input, "preset.wav", plugins + ["--preset", "Crunch"], in: folder)
        _ = try Self.render(input, "file.wav", ["--chain", file], in: folder)
        _ = try Self.render(input, "sets.wav", plugins + ["--set", "builtin.cutoff=2k", "--set", "overdrive.drive=0.7",
                                                         "--set", "overdrive.bypass=on"], in: folder)
        _ = try Self.render(input, "lp.wav", ["--set", "cutoff=2k"], in: folder)
        #expect(try Self.difference(folder.file("preset.wav"), folder.file("sets.wav")) == 0)
        #expect(try Self.difference(folder.file("file.wav"), folder.file("sets.wav")) == 0)
        // The overdrive is bypassed: what is left is the lowpass alone.
        #expect(try Self.difference(folder.file("file.wav"), folder.file("lp.wav")) == 0)
        let other = try Detent.run(["render", input, "-o", "x.wav", "--plugin", Self.overdrive, "--plugin", "builtin",
                                    "--preset", "Crunch"], in: folder.path)
        #expect(other.status != 0 && other.stderr.split(separator: "\n").count == 1, "\(other.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.wav")))
    }

    @Test("SLOT:NAME loads a slot's own preset into that slot alone: the built-in's factory presets, an LV2 plug-in's own")
    func slotPresets() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        // The overdrive bypassed, the built-in at Telephone: the built-in alone at Telephone.
        _ = try Self.render(input, "chain.wav", ["--plugin", Self.overdrive, "--plugin", "builtin", "--preset", "builtin:Telephone",
                                                 "--set", "overdrive.bypass=on"], in: folder)
        _ = try Self.render(input, "alone.wav", ["--preset", "Telephone"], in: folder)
        #expect(try Self.difference(folder.file("chain.wav"), folder.file("alone.wav")) == 0)
        // An instrument's own LV2 preset into its slot of a chain, playing a note: the same as
        // the instrument alone with that preset (the built-in after it bypassed).
        let dx10 = "http://drobilla.net/plugins/mda/DX10"
        try Data(MIDIRenderTests.midiFile([(0, [0x90, 57, 100]), (960, [0x80, 57, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("note.mid")))
        _ = try Self.render(input, "organ.wav", ["--plugin", "synth=\(dx10)", "--plugin", "builtin", "--preset", "synth:Chiff Organ",
                                                 "--set", "builtin.bypass=on", "--midi", "note.mid"], in: folder)
        _ = try Self.render(input, "organ-alone.wav", ["--plugin", dx10, "--preset", "Chiff Organ", "--midi", "note.mid"], in: folder)
        _ = try Self.render(input, "default.wav", ["--plugin", dx10, "--midi", "note.mid"], in: folder)
        #expect(try Self.difference(folder.file("organ.wav"), folder.file("organ-alone.wav")) == 0)
        #expect(try Self.difference(folder.file("organ.wav"), folder.file("default.wav")) > 0.01)
        let wrong = try Detent.run(["render", input, "-o", "x.wav", "--plugin", dx10, "--plugin", "builtin", "--preset", "builtin:No such"],
                                   in: folder.path)
        #expect(wrong.status == 64 && wrong.stderr.contains("No such"), "\(wrong.stderr)")
    }

    @Test("a bad chain is one line and a non-zero exit, and writes nothing", arguments: [
        (["--plugin", "builtin", "--plugin", "no such plug-in at all"], 64, "no installed plug-in"),
        (["--plugin", "a=builtin", "--plugin", "a=\(overdrive)"], 64, "two chain slots are named 'a'"),
        (["--plugin", "builtin", "--chain", "chain.json"], 64, "use one of --plugin, --chain and --graph, not --plugin and --chain"),
        (["--chain", "missing.json"], 65, "missing.json: cannot be read"),
        (["--chain", "garbage.json"], 65, "garbage.json"),
        (["--plugin", "builtin", "--plugin", overdrive, "--set", "drive=0.5"], 64, "overdrive.drive"),
        (["--plugin", "builtin", "--plugin", overdrive, "--set", "builtin.cutoff=0.5"], 64, "builtin.cutoff"),
    ] as [([String], Int32, String)])
    func badChain(arguments: [String], status: Int32, message: String) throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        try "{\"format\": ".write(toFile: folder.file("garbage.json"), atomically: true, encoding: .utf8)
        let outcome = try Detent.run(["render", input, "-o", "out.wav"] + arguments, in: folder.path)
        #expect(outcome.status == status)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
