import Foundation
import Testing
import TestSupport

/// `--vary`, `--variants`, `--seed` and `--write-manifest`: randomised versions of each input,
/// the same byte for byte for the same seed, each rendered again exactly from its record.
@Suite("detent render --variants")
struct VariantTests {
    static let vary = ["--vary", "cutoff=200..8k", "--vary", "resonance=0.5..4", "--vary", "gain=-12,-6,-3"]

    static func inputs(_ folder: TemporaryFolder) {
        folder.write("a.wav", WAV.float([Signal.noise(frames: 4_000, seed: 1), Signal.noise(frames: 4_000, seed: 2)]))
        folder.write("b.wav", WAV.float([Signal.noise(frames: 3_000, seed: 3)]))
    }

    static let names = ["a.v000.wav", "a.v001.wav", "a.v002.wav", "a.v003.wav",
                        "b.v000.wav", "b.v001.wav", "b.v002.wav", "b.v003.wav"]

    static func render(_ arguments: [String], in folder: TemporaryFolder,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let outcome = try Detent.run(["render", "a.wav", "b.wav", "--json"] + vary + arguments, in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        return try outcome.stdout.split(separator: "\n").map { try jsonObject($0) }
    }

    @Test("the same seed renders the same variants byte for byte; another seed others; values in their ranges")
    func reproducible() throws {
        let folder = TemporaryFolder()
        Self.inputs(folder)
        let first = try Self.render(["--variants", "4", "--seed", "11", "--out-dir", "one"], in: folder)
        let again = try Self.render(["--variants", "4", "--seed", "11", "--out-dir", "two", "--jobs", "1"], in: folder)
        let other = try Self.render(["--variants", "4", "--seed", "12", "--out-dir", "three"], in: folder)
        #expect(try folderContents(folder.file("one")) == Self.names)
        #expect(first.map { $0["output"] as? String } == Self.names.map { "one/" + $0 })
        #expect(first.map { $0["variant"] as? Int } == [0, 1, 2, 3, 0, 1, 2, 3])
        for name in Self.names {
            #expect(try folder.bytes("one/" + name) == folder.bytes("two/" + name), "\(name)")
            #expect(try folder.bytes("one/" + name) != folder.bytes("three/" + name), "\(name)")
        }
        let values = first.map { $0["values"] as? [String: Double] ?? [:] }
        #expect(values.map { $0.keys.sorted() } == Array(repeating: ["cutoff", "gain", "resonance"], count: 8))
        #expect(values.allSatisfy { (200...8_000).contains($0["cutoff"]!) && (0.5...4).contains($0["resonance"]!) })
        #expect(values.allSatisfy { [-12, -6, -3].contains($0["gain"]!) })
        #expect(Set(values.map { $0["cutoff"]! }).count == 8)
        #expect(values == again.map { $0["values"] as? [String: Double] ?? [:] })
        #expect(values != other.map { $0["values"] as? [String: Double] ?? [:] })
    }

    @Test("each variant's recorded values render it again exactly: from --json as --set, and from --write-manifest")
    func recordedValuesRenderAgain() throws {
        let folder = TemporaryFolder()
        Self.inputs(folder)
        let first = try Self.render(["--variants", "4", "--seed", "5", "--out-dir", "out", "--subtype", "pcm16",
                                     "--write-manifest", "out/jobs.jsonl"], in: folder)
        let expected = try Self.names.map { try folder.bytes("out/" + $0) }

        // --json's values, typed as --set (the shortest text that reads back to the same number).
        let b2 = try #require(first.first { $0["output"] as? String == "out/b.v002.wav" })
        let sets = (b2["values"] as? [String: Double] ?? [:]).sorted { $0.key < $1.key }.flatMap { ["--set", "\($0.key)=\($0.value)"] }
        #expect(try Detent.run(["render", "b.wav", "-o", "b2.wav", "--subtype", "pcm16"] + sets, in: folder.path).status == 0)
        #expect(try folder.bytes("b2.wav") == folder.bytes("out/b.v002.wav"))

        // The written manifest: paths relative to its folder, every variant again.
        let manifest = try String(contentsOfFile: folder.file("out/jobs.jsonl"), encoding: .utf8)
        let lines = manifest.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines[0].hasPrefix(#"{"input":"\#(folder.path)/a.wav","output":"a.v000.wav","subtype":"pcm16","values":{"cutoff":"#))
        try FileManager.default.moveItem(atPath: folder.file("out"), toPath: folder.file("first"))
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: folder.file("first/jobs.jsonl"), toPath: folder.file("out/jobs.jsonl"))
        let again = try Detent.run(["render", "--manifest", "out/jobs.jsonl", "--json"], in: folder.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.names.map { try folder.bytes("out/" + $0) } == expected)
    }

    @Test("--write-manifest takes the care -o takes: an input, an output or a folder is refused, an existing file without --force, all left whole")
    func writeManifestReplacesNothing() throws {
        let folder = TemporaryFolder()
        Self.inputs(folder)
        folder.write("old.jsonl", Array("keep me\n".utf8))
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        let a = try folder.bytes("a.wav")
        func render(_ manifest: String, force: Bool, outDir: String = "out") throws -> Detent.Outcome {
            try Detent.run(["render", "a.wav", "b.wav", "--variants", "2", "--out-dir", outDir, "--write-manifest", manifest]
                           + Self.vary + (force ? ["--force"] : []), in: folder.path)
        }
        for (path, message) in [("a.wav", "a.wav: is an input of this batch"),
                                ("out/a.v001.wav", "out/a.v001.wav: is where the render of a.wav goes"),
                                ("out", "out: is a folder")] {
            let outcome = try render(path, force: true)
            #expect(outcome.status != 0, "\(path)")
            #expect(outcome.stderr == "detent: --write-manifest \(message)\n")
        }
        #expect(try folder.bytes("a.wav") == a)
        #expect(try folderContents(folder.file("out")) == [], "nothing rendered")
        // Without --force, an existing file is refused before anything renders.
        let existing = try render("old.jsonl", force: false)
        #expect(existing.status == 64)
        #expect(existing.stderr == "detent: --write-manifest old.jsonl: already exists (use --force to overwrite it)\n")
        #expect(try folder.bytes("old.jsonl") == Array("keep me\n".utf8))
        #expect(try folderContents(folder.file("out")) == [])
        // A device is written into, never replaced (as root, it once replaced /dev/full).
        let full = try render("/dev/full", force: true, outDir: "dev")
        #expect(full.status == 74)
        #expect(full.stderr == "detent: --write-manifest /dev/full: No space left on device\n")
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        // With --force, it is replaced whole.
        let forced = try render("old.jsonl", force: true)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: folder.file("old.jsonl"), encoding: .utf8).split(separator: "\n").count == 4)
    }

    @Test("a range draws log-uniformly on a logarithmic taper, uniformly on a linear one")
    func distribution() throws {
        let folder = TemporaryFolder()
        folder.write("s.wav", WAV.float([Signal.noise(frames: 64, seed: 1)]))
        let outcome = try Detent.run(["render", "s.wav", "--out-dir", "v", "--variants", "60", "--seed", "3", "--json",
                                      "--vary", "cutoff=100..10k", "--vary", "gain=-20..0"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let values = try outcome.stdout.split(separator: "\n").map { try #require(jsonObject($0)["values"] as? [String: Double]) }
        #expect(values.count == 60)
        // Log-uniform: half below the geometric middle, 1 kHz (uniform would put 9 % there).
        let low = values.filter { $0["cutoff"]! < 1_000 }.count
        #expect((18...42).contains(low), "\(low) of 60 below 1 kHz")
        let quiet = values.filter { $0["gain"]! < -10 }.count
        #expect((18...42).contains(quiet), "\(quiet) of 60 below -10 dB")
    }

    @Test("variant names: at least three digits, more from 1000 variants; no extension, none added")
    func names() throws {
        let folder = TemporaryFolder()
        folder.write("take", WAV.float([Signal.noise(frames: 64, seed: 1)]))
        let outcome = try Detent.run(["render", "take", "-o", "out", "--variants", "2", "--vary", "gain=-6..0",
                                      "--format", "wav"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(folder.names.contains("out.v000") && folder.names.contains("out.v001"))
    }

    @Test("variant usage errors are one line, before anything renders", arguments: [
        (["--variants", "3"], "detent: --variants needs at least one --vary ID=LOW..HIGH"),
        (["--vary", "gain=-6..0"], "detent: --vary needs --variants N (how many to render)"),
        (["--variants", "0", "--vary", "gain=-6..0"], "detent: --variants 0: must be 1 … 1000000"),
        (["--variants", "2", "--vary", "gain"], "detent: --vary 'gain': expected ID=LOW..HIGH or ID=A,B,C (e.g. cutoff=200..8k)"),
        (["--variants", "2", "--vary", "gain=..0"], "detent: --vary 'gain=..0': a range needs both ends, LOW..HIGH"),
        (["--variants", "2", "--vary", "nothing=1..2"], "detent: --vary 'nothing=1..2': unknown parameter 'nothing' (valid ids: cutoff, resonance, gain)"),
        (["--variants", "2", "--vary", "cutoff=1..2k"], "detent: --vary 'cutoff=1..2k': cutoff value '1' is out of range (20.0 Hz … 20.0 kHz)"),
        (["--seed", "2"], "detent: --seed is for --variants"),
    ])
    func usageErrors(arguments: [String], line: String) throws {
        let folder = TemporaryFolder()
        Self.inputs(folder)
        let before = folder.names
        let outcome = try Detent.run(["render", "a.wav", "--out-dir", "v"] + arguments, in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == line + "\n")
        #expect(folder.names == before)
    }
}
