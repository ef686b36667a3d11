import Foundation
import Testing
import TestSupport

/// `--shard K/N`: N runs cover every job of a batch exactly once — run by hand, by GNU parallel
/// and by the Slurm array script of docs/batches.md.
@Suite("detent render --shard")
struct ShardTests {
    /// Seven short inputs and a manifest of their jobs (outputs in `out/`, a folder the batch
    /// makes), with the built-in at a different cutoff for each.
    static func batch(_ folder: TemporaryFolder, jobs: Int = 7) -> [String] {
        var lines: [String] = []
        for i in 0..<jobs {
            folder.write("in\(i).wav", WAV.float([Signal.noise(frames: 2_000 + 100 * i, seed: UInt64(i + 1))]))
            lines.append(#"{"input": "in\#(i).wav", "output": "out/\#(i).wav", "set": "cutoff=\#(300 + 200 * i)"}"#)
        }
        folder.write("jobs.jsonl", text: lines.joined(separator: "\n") + "\n")
        return (0..<jobs).map { "out/\($0).wav" }
    }

    /// The outputs each `--json` line of `stdout` names.
    static func outputs(_ stdout: String) throws -> [String] {
        try stdout.split(separator: "\n").map { try #require(jsonObject($0)["output"] as? String) }
    }

    /// The bytes of every output of `names` in `folder`'s `under` folder.
    static func contents(_ names: [String], in folder: TemporaryFolder, under: String = "") throws -> [[UInt8]] {
        try names.map { try folder.bytes(under + $0) }
    }

    @Test("shards 0 … N-1 together render every job exactly once, in parts that differ by at most one", arguments: [1, 2, 3, 4, 7, 10])
    func cover(count: Int) throws {
        let folder = TemporaryFolder()
        let all = Self.batch(folder)
        var seen: [String] = []
        for k in 0..<count {
            let outcome = try Detent.run(["render", "--manifest", "jobs.jsonl", "--shard", "\(k)/\(count)", "--json"], in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let mine = try Self.outputs(outcome.stdout)
            #expect(mine == all.indices.filter { $0 % count == k }.map { all[$0] })
            #expect(mine.count == all.count / count || mine.count == all.count / count + 1)
            seen += mine
        }
        #expect(seen.sorted() == all.sorted())
        #expect(Set(seen).count == seen.count)
        #expect(try folderContents(folder.file("out")) == all.map { String($0.dropFirst(4)) }.sorted())
    }

    @Test("a shard reads only its own lines: the others' are passed over unparsed, and a long manifest streams through")
    func otherShardsLinesUnread() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 500, seed: 3)]))
        // Shard 1 of 1000 owns lines 1, 1001, 2001 …; every other line is not even JSON.
        var text = ""
        for place in 0..<5_000 {
            text += place % 1_000 == 1 ? #"{"input": "in.wav", "output": "out/\#(place).wav"}"# + "\n" : "not json \(place)\n"
            if place % 997 == 0 { text += "\n  \n" }  // blank lines are not jobs and take no place
        }
        folder.write("jobs.jsonl", text: text)
        let outcome = try Detent.run(["render", "--manifest", "jobs.jsonl", "--shard", "1/1000", "--json"], in: folder.path)
        #expect(outcome.status == 0 && !outcome.stderr.contains("not JSON"), "\(outcome.stderr)")
        #expect(try Self.outputs(outcome.stdout) == [1, 1001, 2001, 3001, 4001].map { "out/\($0).wav" })
        let lines = try outcome.stdout.split(separator: "\n").map { try #require(jsonObject($0)["line"] as? Int) }
        let numbers = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.hasPrefix("{") }.map { $0.offset + 1 }
        #expect(lines == numbers, "each job names its line, blank lines counted")
        // The same manifest whole: each bad line fails alone, named.
        let whole = try Detent.run(["render", "--manifest", "jobs.jsonl", "--force"], in: folder.path)
        #expect(whole.status == 65 && whole.stderr.contains("jobs.jsonl:1: not JSON"))
    }

    @Test("a bad --shard is one line and exit 64, nothing written", arguments: ["4/4", "-1/4", "1/0", "/4", "2/", "a/b", "1", "1/2/3"])
    func badShard(text: String) throws {
        let folder = TemporaryFolder()
        _ = Self.batch(folder)
        let before = folder.names
        let outcome = try Detent.run(["render", "--manifest", "jobs.jsonl", "--shard", text], in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "detent: --shard '\(text)': expected K/N, shard K (0 … N-1) of N, e.g. 0/8 "
            + "(for a Slurm array: $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)\n")
        #expect(folder.names == before)
    }

    /// The shell code of docs/batches.md's first ``` block whose text contains `marker`.
    static func documented(_ marker: String) throws -> String {
        let page = try String(contentsOfFile: packageRoot + "/docs/batches.md", encoding: .utf8)
        let blocks = page.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return try #require(blocks.first { $0.contains(marker) }, "docs/batches.md shows \(marker)")
    }

    /// `PATH` with the built `detent` first, as the documented commands call it by name.
    static func environment(in folder: TemporaryFolder, _ extra: [String: String] = [:]) throws -> [String: String] {
        var environment = Detent.environment(in: folder.path)
        let bin = (try BuiltProducts.detent as NSString).deletingLastPathComponent
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment.merging(extra) { $1 }
    }

    @Test("GNU parallel running docs/batches.md's line renders the same files as one batch")
    func gnuParallel() throws {
        let folder = TemporaryFolder()
        let all = Self.batch(folder, jobs: 10)
        let one = try Detent.run(["render", "--manifest", "jobs.jsonl"], in: folder.path)
        #expect(one.status == 0, "\(one.stderr)")
        let expected = try Self.contents(all, in: folder)
        try FileManager.default.removeItem(atPath: folder.file("out"))

        let line = try Self.documented("parallel detent render").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line == "parallel detent render --manifest jobs.jsonl --shard {}/8 --skip-existing ::: $(seq 0 7)")
        let outcome = try ChildProcess.run("/bin/sh", ["-c", line], environment: try Self.environment(in: folder),
                                           currentDirectory: folder.path)
        #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
        // Each shard's count line, none with an error: 10 jobs in 8 shards, two of them hold two.
        let counts = outcome.stderrText.split(separator: "\n").filter { $0.hasPrefix("detent: ") }
        #expect(counts.count == 8)
        #expect(counts.filter { $0.hasPrefix("detent: 2 files: 2 rendered in ") }.count == 2)
        #expect(counts.filter { $0.hasPrefix("detent: 1 file: 1 rendered in ") }.count == 6)
        #expect(try Self.contents(all, in: folder) == expected)
        #expect(try folderContents(folder.file("out")).count == all.count)
    }

    @Test("docs/batches.md's Slurm array script, run as each task of the array, renders the same files as one batch")
    func slurmArray() throws {
        let folder = TemporaryFolder()
        let all = Self.batch(folder)
        let one = try Detent.run(["render", "--manifest", "jobs.jsonl"], in: folder.path)
        #expect(one.status == 0)
        let expected = try Self.contents(all, in: folder)
        try FileManager.default.removeItem(atPath: folder.file("out"))

        let script = try Self.documented("#SBATCH --array=")
        #expect(script.hasPrefix("#!/bin/sh\n"))
        folder.write("render.sh", text: script)
        var rendered: [String] = []
        for task in 0..<3 {
            let outcome = try ChildProcess.run("/bin/sh", ["render.sh"], environment: try Self.environment(in: folder, [
                "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_CPUS_PER_TASK": "1",
            ]), currentDirectory: folder.path)
            #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
            let log = try String(contentsOfFile: folder.file("render-\(task).jsonl"), encoding: .utf8)
            rendered += try Self.outputs(log)
        }
        #expect(rendered.sorted() == all.sorted())
        #expect(try Self.contents(all, in: folder) == expected)
    }
}
