import Foundation
import Testing
import TestSupport

/// `detent render --manifest`: JSON Lines of jobs, each rendering as the same options typed for
/// its one file; a bad line fails alone, named by its number.
@Suite("detent render --manifest")
struct ManifestTests {
    static let overdrive = "http://drobilla.net/plugins/mda/Overdrive"  // mda-lv2

    /// Two short stereo inputs (sox) and an automation file in `takes/`.
    static func takes(_ folder: TemporaryFolder) throws {
        try FileManager.default.createDirectory(atPath: folder.file("takes"), withIntermediateDirectories: true)
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "takes/noise.wav", "synth", "0.5", "pinknoise", "vol", "0.5"],
                 in: folder)
        try tool("sox", ["-n", "-r", "44100", "-c", "2", "-b", "24", "takes/tone.wav", "synth", "0.7", "sine", "300-3000", "vol", "0.3"],
                 in: folder)
        folder.write("takes/sweep.txt", text: "0 cutoff 300\n0.2s cutoff 6k ramp 0.3s\n")
    }

    /// The JSON objects of `--json` output, one per line.
    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { try jsonObject($0) }
    }

    @Test("a manifest of mixed jobs renders each as the same options typed for its one file")
    func mixedJobsEqualOneByOne() throws {
        let folder = TemporaryFolder()
        try Self.takes(folder)
        // The manifest lives in takes/: its relative paths are that folder's.
        folder.write("takes/jobs.jsonl", text: """
            {"input": "noise.wav", "output": "../out/plain.wav", "set": ["cutoff=800", "gain=-3dB"]}
            {"input": "tone.wav", "output": "../out/swept.flac", "automation": "sweep.txt", "values": {"resonance": 2}}
            {"input": "noise.wav", "output": "../out/chain.wav", "plugin": ["builtin", "\(Self.overdrive)"], "values": {"builtin.cutoff": "1.2k", "overdrive.drive": 0.7}, "subtype": "float"}
            {"input": "tone.wav", "output": "../out/tail.wav", "tail": "250ms", "set": "gain=-6"}

            """)
        let batch = try Detent.run(["render", "--manifest", "takes/jobs.jsonl", "--jobs", "2", "--json"], in: folder.path)
        #expect(batch.status == 0, "\(batch.stderr)")
        let objects = try Self.objects(batch.stdout)
        #expect(objects.map { $0["output"] as? String } == ["takes/../out/plain.wav", "takes/../out/swept.flac",
                                                             "takes/../out/chain.wav", "takes/../out/tail.wav"])
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(batch.stderr.hasPrefix("detent: 4 files: 4 rendered in ") && batch.stderr.split(separator: "\n").count == 1)

        let single: [(String, [String])] = [
            ("plain.wav", ["takes/noise.wav", "--set", "cutoff=800", "--set", "gain=-3dB"]),
            ("swept.flac", ["takes/tone.wav", "--automation", "takes/sweep.txt", "--set", "resonance=2"]),
            ("chain.wav", ["takes/noise.wav", "--plugin", "builtin", "--plugin", Self.overdrive, "--set", "builtin.cutoff=1.2k",
                           "--set", "overdrive.drive=0.7", "--subtype", "float"]),
            ("tail.wav", ["takes/tone.wav", "--tail", "250ms", "--set", "gain=-6"]),
        ]
        try FileManager.default.createDirectory(atPath: folder.file("one"), withIntermediateDirectories: true)
        for (name, arguments) in single {
            let outcome = try Detent.run(["render", "-o", "one/" + name] + arguments, in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let (batchSamples, batchReader) = try decode(folder.file("out/" + name))
            let (oneSamples, oneReader) = try decode(folder.file("one/" + name))
            #expect(batchSamples == oneSamples, "\(name)")
            #expect(batchReader.format == oneReader.format && batchReader.sampleRate == oneReader.sampleRate, "\(name)")
            #expect(batchSamples.contains { abs($0) > 0.01 }, "\(name) holds sound")
        }
        // The jobs differ from one another: each line's own options took effect.
        #expect(try decode(folder.file("out/plain.wav")).samples != decode(folder.file("out/chain.wav")).samples)
        #expect(try decode(folder.file("out/tail.wav")).reader.frames == 30_870 + 11_025)
    }

    @Test("a malformed line is one line on stderr with its number; the other jobs render; exit 65")
    func malformedLine() throws {
        let folder = TemporaryFolder()
        try Self.takes(folder)
        folder.write("jobs.jsonl", text: """
            {"input": "takes/noise.wav", "output": "a.wav"}
            {"input": "takes/noise.wav", "output": "b.wav", oops}

            ["takes/noise.wav"]
            {"input": "takes/noise.wav", "output": "c.wav", "tail": true}
            {"input": "takes/noise.wav", "output": "d.wav", "set": ["nothing=1"]}
            {"output": "e.wav"}
            {"input": "takes/tone.wav", "output": "f.wav", "frobnicate": 1}
            {"input": "takes/tone.wav", "output": "g.wav"}
            """)
        let outcome = try Detent.run(["render", "--manifest", "jobs.jsonl", "--json"], in: folder.path)
        #expect(outcome.status == 65)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0] == "detent: jobs.jsonl:2: not JSON: column 49: expected a member name in quotes, found 'o'")
        #expect(lines[1] == "detent: jobs.jsonl:4: expected a JSON object with the job's input and output")
        #expect(lines[2] == "detent: jobs.jsonl:5: 'tail' is a boolean, not a string")
        #expect(lines[3].hasPrefix("detent: jobs.jsonl:6: --set 'nothing=1': unknown parameter 'nothing'"))
        #expect(lines[4] == "detent: jobs.jsonl:7: no 'input': every job names the file it renders")
        #expect(lines[5].hasPrefix("detent: jobs.jsonl:8: unknown field 'frobnicate' (known: input, output,"))
        #expect(lines[6].hasPrefix("detent: 8 files: 2 rendered, 6 failed in "))
        #expect(folder.names.filter { !$0.hasPrefix(".") } == ["a.wav", "g.wav", "jobs.jsonl", "takes"])
        #expect(!folder.names.contains { $0.contains(".detent-") })
        let objects = try Self.objects(outcome.stdout)
        #expect(objects.count == 8)
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 4, 5, 6, 7, 8, 9])
        #expect(objects.map { $0["exitCode"] as? Int } == [nil, 65, 65, 65, 65, 65, 65, nil])
        #expect(objects[1]["manifest"] as? String == "jobs.jsonl")
    }

    @Test("on a terminal, one line follows the batch: files done of the total, failures, speed, time left; then the count line")
    func progressOnTerminal() throws {
        let folder = TemporaryFolder()
        for name in ["a", "b", "c"] { folder.write(name + ".wav", WAV.float([Signal.noise(frames: 48_000, seed: 3)])) }
        folder.write("jobs.jsonl", text: """
            {"input": "missing.wav", "output": "out/m.wav"}
            {"input": "a.wav", "output": "out/a.wav"}
            {"input": "b.wav", "output": "out/b.wav"}
            {"input": "c.wav", "output": "out/c.wav"}
            """)
        // util-linux `script` runs it on a pseudo-terminal and copies what the terminal shows.
        let command = [try BuiltProducts.detent, "render", "--manifest", "jobs.jsonl", "--jobs", "1", "--block-frames", "4096"]
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let outcome = try Detent.run(["-q", "-e", "-c", command, "/dev/null"], in: folder.path, prefix: ["/usr/bin/script"], direct: true)
        #expect(outcome.status == 74)
        let shown = outcome.stdout
        #expect(shown.contains("\r\u{1B}[K1/4 files, 1 failed  "))
        #expect(shown.contains("% ") && shown.contains("× real time") && shown.contains(" left"))
        #expect(shown.contains("detent: missing.wav: cannot open: No such file or directory\r\n"))
        #expect(shown.contains("\r\u{1B}[Kdetent: 4 files: 3 rendered, 1 failed in "))
        #expect(shown.hasSuffix("× real time\r\n"))
    }

    @Test("--manifest - reads stdin, its paths the current folder's")
    func standardInput() throws {
        let folder = TemporaryFolder()
        try Self.takes(folder)
        let lines = #"{"input": "takes/noise.wav", "output": "x.wav", "set": "cutoff=500"}"# + "\n"
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", "--manifest", "-", "--quiet"],
                                           environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                           stdin: Array(lines.utf8))
        #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
        #expect(outcome.stderrText == "")
        #expect(try Detent.run(["render", "takes/noise.wav", "-o", "y.wav", "--set", "cutoff=500"], in: folder.path).status == 0)
        #expect(try folder.bytes("x.wav") == folder.bytes("y.wav"))
    }

    @Test("a manifest's usage errors are one line each, before anything renders", arguments: [
        (["--manifest", "jobs.jsonl", "takes/noise.wav"], 64, "detent: use either input files or --manifest, not both"),
        (["--manifest", "jobs.jsonl", "-o", "x.wav"], 64, "detent: -o names one output; a manifest names each job's (or use --out-dir)"),
        (["--manifest", "missing.jsonl"], 74, "detent: --manifest missing.jsonl: cannot be read (No such file or directory)"),
        (["--manifest", "takes"], 74, "detent: --manifest takes: cannot be read (Is a directory)"),
    ])
    func usageErrors(arguments: [String], status: Int32, line: String) throws {
        let folder = TemporaryFolder()
        try Self.takes(folder)
        folder.write("jobs.jsonl", text: #"{"input": "takes/noise.wav", "output": "a.wav"}"#)
        let before = folder.names
        let outcome = try Detent.run(["render"] + arguments, in: folder.path)
        #expect(outcome.status == status)
        #expect(outcome.stderr == line + "\n")
        #expect(folder.names == before)
    }

    @Test("a line naming a graph with an empty end fails alone; a path with a NUL byte is refused, not cut")
    func hostileLines() throws {
        let folder = TemporaryFolder()
        try Self.takes(folder)
        folder.write("bad.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["a",""]]}"#)
        folder.write("g.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["a","output"]]}"#)
        folder.write("jobs.jsonl", text: """
            {"input": "takes/noise.wav", "output": "a.wav"}
            {"input": "takes/noise.wav", "output": "b.wav", "graph": "bad.json"}
            {"input": "takes/noise.wav", "output": "c.wav", "graph": "g.json\\u0000x"}
            {"input": "takes/noise.wav\\u0000x", "output": "d.wav"}
            {"input": {"input": "takes/noise.wav", "key": "takes/tone.wav\\u0000"}, "output": "e.wav", "graph": "g.json"}
            {"input": "takes/tone.wav", "output": "f.wav", "graph": "g.json"}

            """)
        let outcome = try Detent.run(["render", "--manifest", "jobs.jsonl"], in: folder.path)
        #expect(outcome.status == 65)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(outcome.stderr)")
        #expect(lines.first == "detent: jobs.jsonl:2: bad.json: a connection's end '' is empty: "
                + "write SLOT, SLOT:sidechain, input, a named input or output")
        #expect(Array(lines.dropFirst().prefix(3)) == [
            "detent: jobs.jsonl:3: 'graph': a path cannot hold a NUL byte (\\u0000)",
            "detent: jobs.jsonl:4: 'input': a path cannot hold a NUL byte (\\u0000)",
            "detent: jobs.jsonl:5: 'input.key': a path cannot hold a NUL byte (\\u0000)",
        ])
        #expect(folder.names.filter { $0.hasSuffix(".wav") } == ["a.wav", "f.wav"])
    }

    @Test("--write-manifest --force replaces no file the batch reads: keys, named inputs, the graph, automation, the manifest")
    func writtenManifestSparesReadFiles() throws {
        let folder = TemporaryFolder()
        try Self.takes(folder)
        folder.write("g.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["key","a"],["a","output"]]}"#)
        folder.write("takes/sweep.txt", text: "0 a.cutoff 300\n")
        folder.write("jobs.jsonl", text: """
            {"input": {"input": "takes/noise.wav", "key": "takes/tone.wav"}, "output": "out/a.wav", "graph": "g.json", "automation": "takes/sweep.txt"}

            """)
        let names = ["takes/tone.wav", "g.json", "takes/sweep.txt", "jobs.jsonl"]
        let kept = try names.map { try folder.bytes($0) }
        let cases = [("takes/tone.wav", "a graph's named input this render reads"), ("./takes/../takes/tone.wav", "a graph's named input this render reads"),
                     ("g.json", "the graph file this render reads"), ("takes/sweep.txt", "the automation file this render reads"),
                     ("jobs.jsonl", "the manifest this render reads")]
        for (path, message) in cases {
            let outcome = try Detent.run(["render", "--manifest", "jobs.jsonl", "--write-manifest", path, "--force"], in: folder.path)
            #expect(outcome.status == 64, "\(path): \(outcome.stderr)")
            #expect(outcome.stderr == "detent: --write-manifest \(path): is \(message)\n", "\(path)")
        }
        #expect(try names.map { try folder.bytes($0) } == kept)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/a.wav")))
    }
}
