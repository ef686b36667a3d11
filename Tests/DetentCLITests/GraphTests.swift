import Foundation
import Glibc
import Testing
import TestSupport

/// `--graph FILE`: parallel branches summed and lined up, named inputs, side-chain edges,
/// graphs kept as presets, and every malformed graph refused in one line — each graph's
/// output held to its branches rendered one by one (pink noise and a tone made by sox).
@Suite("detent: graphs")
struct GraphTests {
    static let limiter = "http://gareus.org/oss/lv2/dpl#stereo"   // x42-plugins, 64 frames of latency
    static let compressor = "urn:zamaudio:ZamComp"

    static func noise(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("noise.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point", path,
                         "synth", "3", "pinknoise", "vol", "0.5"], in: folder)
        return path
    }

    static func write(_ json: String, _ name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.file(name)
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func render(_ arguments: [String], in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Float] {
        let output = folder.file("out-\(UUID().uuidString).wav")
        let outcome = try Detent.run(["render"] + arguments + ["-o", output, "--subtype", "float", "--quiet"], in: folder.path)
        try #require(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        return try decode(output).samples
    }

    /// The largest difference between `a` and the sum of `parts`, which must all be as long.
    static func differenceFromSum(_ a: [Float], _ parts: [[Float]], sourceLocation: SourceLocation = #_sourceLocation) throws -> Float {
        for part in parts { try #require(part.count == a.count, "\(part.count) against \(a.count) samples", sourceLocation: sourceLocation) }
        var worst: Float = 0
        for i in a.indices { worst = max(worst, abs(a[i] - parts.reduce(0) { $0 + $1[i] })) }
        return worst
    }

    @Test("two parallel built-in branches equal the sum of their separate renders")
    func parallelBranches() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let graph = try Self.write("""
            {"slots": {"lo": {"plugin": "builtin", "values": {"cutoff": 300, "gain": -6}},
                       "hi": {"plugin": "builtin", "values": {"cutoff": "5k", "gain": "-6dB"}}},
             "connections": [["input", "lo"], ["input", "hi"], ["lo", "output"], ["hi", "output"]]}
            """, "parallel.json", in: folder)
        let both = try Self.render([input, "--graph", graph], in: folder)
        let lo = try Self.render([input, "--set", "cutoff=300", "--set", "gain=-6"], in: folder)
        let hi = try Self.render([input, "--set", "cutoff=5000", "--set", "gain=-6"], in: folder)
        #expect(try Self.differenceFromSum(both, [lo, hi]) < 1e-5)
        // A --set over the file's value.
        let louder = try Self.render([input, "--graph", graph, "--set", "lo.gain=0"], in: folder)
        let lo0 = try Self.render([input, "--set", "cutoff=300"], in: folder)
        #expect(try Self.differenceFromSum(louder, [lo0, hi]) < 1e-5)
    }

    @Test("a branch with latency (a lookahead limiter) lines up with one without; the graph reports the longest path's")
    func branchesLineUp() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let graph = try Self.write("""
            {"slots": {"lo": {"plugin": "builtin", "values": {"cutoff": 300}},
                       "lim": {"plugin": "\(Self.limiter)", "values": {"threshold": -6}}},
             "connections": [["input", "lo"], ["input", "lim"], ["lo", "output"], ["lim", "output"], ["input", "output"]]}
            """, "latency.json", in: folder)
        let output = folder.file("graph.wav")
        let outcome = try Detent.run(["render", input, "--graph", graph, "-o", output, "--subtype", "float", "--json"], in: folder.path)
        try #require(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"latency\":64"), "\(outcome.stdout)")
        let lo = try Self.render([input, "--set", "cutoff=300"], in: folder)
        let lim = try Self.render([input, "--plugin", Self.limiter, "--set", "threshold=-6"], in: folder)
        let dry = try decode(input).samples
        #expect(try Self.differenceFromSum(try decode(output).samples, [lo, lim, dry]) < 1e-5)
    }

    @Test("a side-chain edge from a named input equals --sidechain; an input given no file is silent, and said so")
    func sideChainEdge() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try SidechainTests.files(folder)
        let graph = try Self.write("""
            {"slots": {"comp": {"plugin": "\(Self.compressor)", "values": {"sidech": 1, "thr": -30, "rat": 20}}},
             "connections": [["input", "comp"], ["key", "comp:sidechain"], ["comp", "output"]]}
            """, "keyed.json", in: folder)
        let edge = try Self.render([tone, "--graph", graph, "--input", "key=\(key)"], in: folder)
        let option = try Self.render([tone, "--plugin", Self.compressor, "--set", "sidech=1", "--sidechain", key] + SidechainTests.ducking, in: folder)
        #expect(try Self.differenceFromSum(edge, [option]) == 0)
        #expect(SidechainTests.level(edge, channels: 1, 0.2...0.9) - SidechainTests.level(edge, channels: 1, 1.2...1.9) >= 10)
        let silent = try Detent.run(["render", tone, "--graph", graph, "-o", folder.file("unkeyed.wav")], in: folder.path)
        #expect(silent.status == 0)
        #expect(silent.stderr == "detent: warning: the graph's input 'key' is silent: give it a file with --input key=FILE\n")
    }

    @Test("a preset saved from a graph hosts the same graph again through --chain")
    func graphPreset() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let graph = try Self.write("""
            {"slots": {"a": {"plugin": "builtin", "values": {"cutoff": 500}}, "b": {"plugin": "builtin", "values": {"gain": -12}}},
             "connections": [["input", "a"], ["a", "b"], ["input", "b"], ["b", "output"]]}
            """, "series.json", in: folder)
        let exported = folder.file("preset.json")
        for arguments in [["preset", "save", "Mine", "--graph", graph, "--set", "a.resonance=2"],
                          ["preset", "export", "Mine", "--graph", graph, "-o", exported]] {
            let outcome = try Detent.run(arguments, in: folder.path)
            try #require(outcome.status == 0, "\(outcome.stderr)")
        }
        let direct = try Self.render([input, "--graph", graph, "--set", "a.resonance=2"], in: folder)
        let again = try Self.render([input, "--chain", exported], in: folder)
        #expect(try Self.differenceFromSum(again, [direct]) == 0)
    }

    @Test("a manifest's graph, sidechain and named inputs (paths from the manifest's folder) render as typed")
    func manifestFields() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try SidechainTests.files(folder)
        try FileManager.default.createDirectory(atPath: folder.file("jobs"), withIntermediateDirectories: true)
        _ = try Self.write("""
            {"slots": {"comp": {"plugin": "\(Self.compressor)", "values": {"sidech": 1, "thr": -30, "rat": 20}}},
             "connections": [["input", "comp"], ["key", "comp:sidechain"], ["comp", "output"]]}
            """, "jobs/keyed.json", in: folder)
        folder.write("jobs/all.jsonl", text: """
            {"input": {"input": "../tone.wav", "key": "../key.wav"}, "output": "graph.wav", "graph": "keyed.json", "subtype": "float"}
            {"input": "../tone.wav", "output": "option.wav", "plugin": "\(Self.compressor)", "sidechain": {"zamcomp": "../key.wav"}, "values": {"sidech": 1, "thr": -30, "rat": 20}, "subtype": "float"}

            """)
        let batch = try Detent.run(["render", "--manifest", "jobs/all.jsonl", "--quiet"], in: folder.path)
        try #require(batch.status == 0, "\(batch.stderr)")
        let typed = try Self.render([tone, "--graph", folder.file("jobs/keyed.json"), "--input", "key=\(key)"], in: folder)
        #expect(try decode(folder.file("jobs/graph.wav")).samples == typed)
        #expect(try decode(folder.file("jobs/option.wav")).samples == typed)
        // --write-manifest writes the same fields back.
        let written = try Detent.run(["render", "--manifest", "jobs/all.jsonl", "--write-manifest", "written.jsonl", "--force", "--quiet"],
                                     in: folder.path)
        try #require(written.status == 0, "\(written.stderr)")
        let lines = try String(contentsOfFile: folder.file("written.jsonl"), encoding: .utf8)
        #expect(lines.contains("\"graph\":") && lines.contains("\"key\":") && lines.contains("\"sidechain\":[\"zamcomp="), "\(lines)")
        let again = try Detent.run(["render", "--manifest", "written.jsonl", "--force", "--quiet"], in: folder.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try decode(folder.file("jobs/graph.wav")).samples == typed)
    }

    @Test("refused with one line naming the problem, and no output: cycles, unknown ends, lost slots, bad values")
    func refusals() throws {
        let folder = TemporaryFolder()
        let input = try Self.noise(folder)
        let cases: [(String, String)] = [
            (#"{"slots": {"a": {"plugin": "builtin"}, "b": {"plugin": "builtin"}}, "connections": [["input","a"],["a","b"],["b","a"],["b","output"]]}"#,
             "the connections make a cycle through a, b"),
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input","a"],["a","nope"],["a","output"]]}"#,
             "a connection goes to 'nope', which is no slot (nor output)"),
            (#"{"slots": {"a": {"plugin": "builtin"}, "b": {"plugin": "builtin"}}, "connections": [["input","a"],["input","b"],["a","output"]]}"#,
             "slot 'b' has no path to the output"),
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input","a"]]}"#, "no connection goes to the output"),
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input","a:sidechain"],["a","output"]]}"#,
             "slot 'a' has no side-chain input"),
            (#"{"slots": {"a": {"plugin": "builtin", "values": {"nope": 3}}}, "connections": [["input","a"],["a","output"]]}"#,
             "unknown parameter 'a.nope'"),
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input","a"],["a","a"],["a","output"]]}"#,
             "the connections make a cycle through a, a"),
            (#"{"slots": {"input": {"plugin": "builtin"}}, "connections": [["input","output"]]}"#, "names the graph's input, not a slot"),
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input"]]}"#, "connection 1 is not [\"FROM\", \"TO\"]"),
            // `a:` fed a's main input; the same line twice was summed, twice as loud.
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input","a:"],["a","output"]]}"#,
             "a connection's end 'a:' names no port after ':'"),
            (#"{"slots": {"a": {"plugin": "builtin"}}, "connections": [["input","a"],["a","output"],["input","a"]]}"#,
             "the connection input>a is given twice"),
        ]
        let output = folder.file("refused.wav")
        for (json, message) in cases {
            let graph = try Self.write(json, "bad.json", in: folder)
            let outcome = try Detent.run(["render", input, "--graph", graph, "-o", output], in: folder.path)
            #expect(outcome.status == 65, "\(json): \(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("detent: \(graph): ") && lines[0].contains(message), "\(json): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        let both = try Detent.run(["render", input, "--graph", folder.file("bad.json"), "--plugin", "builtin", "-o", output], in: folder.path)
        #expect(both.status == 64 && both.stderr == "detent: use one of --plugin, --chain and --graph, not --plugin and --graph\n", "\(both.stderr)")
    }

    @Test("a connection to '', ':' or '::' is one line and exit 65 from params, render and a manifest's line, not a crash",
          arguments: ["", ":", "::"])
    func emptyEnds(end: String) throws {
        let folder = TemporaryFolder()
        let graph = try Self.write(#"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["a","\#(end)"]]}"#,
                                   "g.json", in: folder)
        let message = "detent: g.json: a connection's end '\(end)' "
        let params = try Detent.run(["params", "--graph", "g.json"], in: folder.path)
        #expect(params.status == 65 && params.stderr.hasPrefix(message) && params.stderr.split(separator: "\n").count == 1,
                "\(String(describing: params.status)): \(params.stderr)")
        let input = try Self.noise(folder)
        let render = try Detent.run(["render", input, "--graph", graph, "-o", "out.wav"], in: folder.path)
        #expect(render.status == 65 && render.stderr.split(separator: "\n").count == 1, "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test("a graph file that is a FIFO, a folder or too large is refused at once in one line")
    func notAGraphFile() throws {
        let folder = TemporaryFolder()
        #expect(mkfifo(folder.file("fifo.json"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder.file("folder.json"), withIntermediateDirectories: false)
        folder.write("large.json", [UInt8](repeating: 0x20, count: 2 << 20))
        for (name, problem) in [("fifo.json", "is a FIFO, not a regular file"), ("folder.json", "is a folder, not a file"),
                                ("large.json", "cannot be read (larger than 1 MB)")] {
            // A FIFO with no writer blocked for ever: `timeout` bounds the test if it comes back.
            let outcome = try Detent.run(["params", "--graph", name], in: folder.path, prefix: ["/usr/bin/timeout", "20"])
            #expect(outcome.status == 65 && outcome.stderr == "detent: \(name): \(problem)\n", "\(name): \(outcome.stderr)")
        }
    }
}
