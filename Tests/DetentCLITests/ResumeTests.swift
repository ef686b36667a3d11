import Foundation
import Testing
import TestSupport

/// `--skip-existing`: a batch killed outright (SIGKILL) mid-file and started again renders
/// exactly the missing files and leaves no partial one, while a temporary file that a running
/// render holds is left alone.
@Suite("detent render --skip-existing")
struct ResumeTests {
    @Test("what a killed render left beside its output is removed by the next render of it, a single file's or a skipped one's; a held one stays")
    func abandonedTemporariesAreRemoved() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 3_000, seed: 1)]))
        // A render killed mid-file, and one killed between linking its output and removing
        // the temporary name (the output is whole, and so is its second name).
        folder.write(".out.wav.detent-a1b2c3", Array(repeating: 0, count: 1_000))
        folder.write("kept.wav", WAV.float([Signal.noise(frames: 300, seed: 2)]))
        folder.write(".kept.wav.detent-d4e5f6", WAV.float([Signal.noise(frames: 300, seed: 2)]))
        let held = folder.file(".out.wav.detent-zzzzzz")
        let holder = open(held, O_CREAT | O_WRONLY, 0o600)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        let plain = try Detent.run(["render", "in.wav", "-o", "out.wav"], in: folder.path)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!folder.names.contains(".out.wav.detent-a1b2c3"), "the killed render's partial file is gone")
        #expect(folder.names.contains(".out.wav.detent-zzzzzz"), "a file a running render holds is left alone")
        let kept = try folder.bytes("kept.wav")
        let skipping = try Detent.run(["render", "in.wav", "-o", "kept.wav", "--skip-existing"], in: folder.path)
        #expect(skipping.status == 0, "\(skipping.stderr)")
        #expect(!folder.names.contains(".kept.wav.detent-d4e5f6"), "a skipped output's second name is gone")
        #expect(try folder.bytes("kept.wav") == kept)
    }

    @Test("a batch killed with SIGKILL mid-file, run again with --skip-existing, renders exactly what is missing")
    func killedAndResumed() throws {
        let folder = TemporaryFolder()
        var lines: [String] = []
        for i in 0..<6 {
            if i != 3 { folder.write("in\(i).wav", WAV.float([Signal.noise(frames: 3_000, seed: UInt64(i + 1))])) }
            lines.append(#"{"input": "in\#(i).wav", "output": "out/in\#(i).wav", "set": "cutoff=\#(500 + 300 * i)"}"#)
        }
        folder.write("jobs.jsonl", text: lines.joined(separator: "\n") + "\n")
        // Job 3 reads a FIFO the test feeds and then withholds: the batch is certainly in the
        // middle of that file, one job at a time, when it is killed.
        #expect(mkfifo(folder.file("in3.wav"), 0o600) == 0)
        let arguments = ["render", "--manifest", "jobs.jsonl", "--jobs", "1"]
        let render = try ChildProcess(try BuiltProducts.detent, arguments, environment: Detent.environment(in: folder.path),
                                      currentDirectory: folder.path)
        Glibc.signal(SIGPIPE, SIG_IGN)
        let fifo = open(folder.file("in3.wav"), O_WRONLY)  // waits for the batch to reach job 3
        #expect(fifo >= 0)
        let header = WAV.bytes(formatTag: WAV.ieeeFloat, channels: 1, bitsPerSample: 32, data: [], declaredDataBytes: 48_000 * 4)
        #expect(Self.writeAll(fifo, header + [UInt8](repeating: 0, count: 64 * 1_024)))
        try waitUntil("job 3 has its temporary file") {
            ((try? folderContents(folder.file("out"))) ?? []).contains { $0.hasPrefix(".in3.wav.detent-") }
        }
        render.signal(SIGKILL)
        #expect(render.wait(seconds: 10)?.signal == SIGKILL)
        close(fifo)
        let killed = try folderContents(folder.file("out"))
        #expect(killed.filter { !$0.hasPrefix(".") } == ["in0.wav", "in1.wav", "in2.wav"])
        #expect(killed.filter { $0.hasPrefix(".in3.wav.detent-") }.count == 1, "the killed render's partial file")

        // A temporary file some running render holds (here the test) is not the batch's to
        // remove: its output is being rendered by another run, which the batch leaves it to.
        let held = folder.file("out/.in4.wav.detent-abcdef")
        let holder = open(held, O_CREAT | O_WRONLY, 0o600)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)

        #expect(unlink(folder.file("in3.wav")) == 0)
        folder.write("in3.wav", WAV.float([Signal.noise(frames: 3_000, seed: 4)]))
        let resumed = try Detent.run(arguments + ["--skip-existing", "--json"], in: folder.path)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let objects = try resumed.stdout.split(separator: "\n").map { try jsonObject($0) }
        #expect(objects.map { $0["output"] as? String } == (0..<6).map { "out/in\($0).wav" })
        #expect(objects.map { $0["skipped"] as? Bool } == [true, true, true, nil, true, nil])
        #expect(objects.map { $0["renderingElsewhere"] as? Bool } == [nil, nil, nil, nil, true, nil])
        #expect([3, 5].allSatisfy { objects[$0]["frames"] as? Int == 3_000 })
        #expect(resumed.stderr.hasPrefix(
            "detent: 6 files: 2 rendered, 3 skipped (output exists), 1 skipped (another run is rendering it) in "))
        #expect(try folderContents(folder.file("out")) == [".in4.wav.detent-abcdef"] + [0, 1, 2, 3, 5].map { "in\($0).wav" })

        // The other run gone without finishing it: the next resume renders it, and removes
        // what that run left.
        close(holder)
        let finished = try Detent.run(arguments + ["--skip-existing"], in: folder.path)
        #expect(finished.status == 0 && finished.stderr.hasPrefix("detent: 6 files: 1 rendered, 5 skipped (output exists) in "),
                "\(finished.stderr)")
        #expect(try folderContents(folder.file("out")) == (0..<6).map { "in\($0).wav" })

        // The same as the batch rendered whole.
        try FileManager.default.moveItem(atPath: folder.file("out"), toPath: folder.file("resumed"))
        let whole = try Detent.run(["render", "--manifest", "jobs.jsonl"], in: folder.path)
        #expect(whole.status == 0)
        for i in 0..<6 { #expect(try folder.bytes("out/in\(i).wav") == folder.bytes("resumed/in\(i).wav"), "in\(i).wav") }
    }

    @Test("two runs of one batch at once with --skip-existing (a requeued shard beside the one still running) skip what the other rendered or is rendering, and fail nothing")
    func twoRunsAtOnce() throws {
        let folder = TemporaryFolder()
        var lines: [String] = []
        for i in 0..<12 {
            folder.write("in\(i).wav", WAV.float([Signal.noise(frames: 48_000 * 4, seed: UInt64(i + 1))]))
            lines.append(#"{"input": "in\#(i).wav", "output": "out/in\#(i).wav", "set": "cutoff=\#(500 + 300 * i)"}"#)
        }
        folder.write("jobs.jsonl", text: lines.joined(separator: "\n") + "\n")
        let arguments = ["render", "--manifest", "jobs.jsonl", "--jobs", "1", "--skip-existing", "--json"]
        let environment = Detent.environment(in: folder.path)
        let first = try ChildProcess(try BuiltProducts.detent, arguments, environment: environment, currentDirectory: folder.path,
                                     stdout: .pipe, stderr: .pipe)
        try waitUntil("the first run is rendering") {
            ((try? folderContents(folder.file("out"))) ?? []).contains { $0.hasPrefix(".in") }
        }
        let second = try Detent.run(arguments, in: folder.path)
        let firstOutcome = first.finish()
        #expect(firstOutcome.status.exited == 0 && second.status == 0, "\(firstOutcome.stderrText) \(second.stderr)")
        var rendered: [String] = []
        for stdout in [firstOutcome.stdoutText, second.stdout] {
            let objects = try stdout.split(separator: "\n").map { try jsonObject($0) }
            #expect(objects.count == 12)
            #expect(objects.allSatisfy { $0["error"] == nil }, "\(stdout)")
            rendered += objects.filter { $0["skipped"] == nil }.compactMap { $0["output"] as? String }
        }
        #expect(Set(rendered).count == 12, "every job rendered by one run or the other")
        #expect(try folderContents(folder.file("out")) == (0..<12).map { "in\($0).wav" }.sorted())

        // The same as the batch rendered by one run.
        try FileManager.default.moveItem(atPath: folder.file("out"), toPath: folder.file("both"))
        #expect(try Detent.run(["render", "--manifest", "jobs.jsonl"], in: folder.path).status == 0)
        for i in 0..<12 { #expect(try folder.bytes("out/in\(i).wav") == folder.bytes("both/in\(i).wav"), "in\(i).wav") }
    }

    @Test("--skip-existing and --force exclude each other")
    func notWithForce() throws {
        let folder = TemporaryFolder()
        folder.write("a.wav", WAV.float([Signal.noise(frames: 100)]))
        let outcome = try Detent.run(["render", "a.wav", "--skip-existing", "--force"], in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "detent: use either --skip-existing or --force, not both\n")
        #expect(folder.names == ["a.wav"])
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
