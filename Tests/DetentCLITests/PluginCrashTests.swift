import Foundation
import Testing
import TestSupport

/// A plug-in that crashes fails its file alone: one line naming the plug-in and the signal,
/// no output and no temporary file, the right exit status, and in a batch the other files
/// rendered. The plug-ins are a LADSPA library the test compiles: one raises SIGSEGV in
/// `run()` on a marked sample (exactly 0.5), one aborts in its `cleanup()`, after the output
/// was written.
@Suite("detent: plug-ins that crash")
struct PluginCrashTests {
    static let source = #"""
    #include <ladspa.h>
    #include <signal.h>
    #include <stdlib.h>
    typedef struct { LADSPA_Data *in, *out; } Crash;
    static const LADSPA_PortDescriptor ports[] = { LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO };
    static const char *names[] = { "In", "Out" };
    static const LADSPA_PortRangeHint hints[] = { { 0, 0, 0 }, { 0, 0, 0 } };
    static LADSPA_Handle make(const LADSPA_Descriptor *d, unsigned long rate) { return calloc(1, sizeof(Crash)); }
    static void connect(LADSPA_Handle h, unsigned long p, LADSPA_Data *d) { if (p == 0) ((Crash *)h)->in = d; else ((Crash *)h)->out = d; }
    static void pass(LADSPA_Handle h, unsigned long n) {
        Crash *c = h;
        for (unsigned long i = 0; i < n; i++) c->out[i] = c->in[i];
    }
    static void segv_on_mark(LADSPA_Handle h, unsigned long n) {
        Crash *c = h;
        for (unsigned long i = 0; i < n; i++) { if (c->in[i] == 0.5f) raise(SIGSEGV); c->out[i] = c->in[i]; }
    }
    static void release(LADSPA_Handle h) { free(h); }
    static void abort_in_cleanup(LADSPA_Handle h) { abort(); }
    static const LADSPA_Descriptor descriptors[] = {
        { 7701, "crash_run", 0, "Crash in run", "", "", 2, ports, names, hints, NULL, make, connect, NULL, segv_on_mark, NULL, NULL, NULL, release },
        { 7702, "crash_cleanup", 0, "Crash in cleanup", "", "", 2, ports, names, hints, NULL, make, connect, NULL, pass, NULL, NULL, NULL, abort_in_cleanup },
    };
    const LADSPA_Descriptor *ladspa_descriptor(unsigned long i) { return i < 2 ? &descriptors[i] : NULL; }
    """#

    /// A folder with the library built in `lib/`, and the environment that finds it.
    static func prepared() throws -> (TemporaryFolder, [String: String]) {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("lib"), withIntermediateDirectories: true)
        folder.write("crash.c", text: source)
        let built = try ChildProcess.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", folder.file("lib/crash.so"), folder.file("crash.c")])
        try #require(built.status.exited == 0, "cc: \(built.stderrText)")
        return (folder, ["LADSPA_PATH": folder.file("lib")])
    }

    /// One second of a quiet ramp, with the marked sample 0.5 at frame 30000 when `marked`.
    static func input(_ folder: TemporaryFolder, _ name: String, marked: Bool) -> String {
        var samples = (0..<48_000).map { Float($0 % 100) / 1_000 }
        if marked { samples[30_000] = 0.5 }
        return folder.write(name, WAV.float([samples]))
    }

    @Test("a plug-in that aborts in its cleanup, after the output was written: one line, status 70, no file",
          arguments: [[], ["--jobs", "1"]])
    func abortInCleanup(extra: [String]) throws {
        let (folder, environment) = try Self.prepared()
        let input = Self.input(folder, "in.wav", marked: false)
        let before = folder.names
        let outcome = try Detent.run(["render", input, "-o", "out.wav", "--plugin", "crash.so:crash_cleanup"] + extra,
                                     in: folder.path, extra: environment)
        #expect(outcome.status == 70, "\(outcome.stderr)")
        #expect(outcome.stderr == "detent: \(input): Crash in cleanup crashed (Aborted, signal 6); out.wav was not written\n",
                "\(outcome.stderr)")
        #expect(folder.names == before, "left behind: \(Set(folder.names).subtracting(before))")
    }

    @Test("a plug-in that segfaults in run(): one line naming it and the signal, no temporary file")
    func segfaultInRun() throws {
        let (folder, environment) = try Self.prepared()
        let input = Self.input(folder, "in.wav", marked: true)
        let before = folder.names
        let outcome = try Detent.run(["render", input, "-o", "out.wav", "--plugin", "crash.so:crash_run"],
                                     in: folder.path, extra: environment)
        #expect(outcome.status == 70, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: \(input): Crash in run crashed (Segmentation fault, signal 11)"),
                "\(outcome.stderr)")
        #expect(folder.names == before, "left behind: \(Set(folder.names).subtracting(before))")
    }

    @Test("in a batch the crash fails its file alone: the files before and after it render, each equal to its input",
          arguments: [1, 2])
    func batch(jobs: Int) throws {
        let (folder, environment) = try Self.prepared()
        let inputs = (0..<4).map { Self.input(folder, "take\($0).wav", marked: $0 == 1) }
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let outcome = try Detent.run(["render"] + inputs + ["--out-dir", "out", "--plugin", "crash.so:crash_run", "--json",
                                                           "--subtype", "float", "--jobs", "\(jobs)"],
                                     in: folder.path, extra: environment)
        #expect(outcome.status == 70, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: \(inputs[1]): Crash in run crashed (Segmentation fault, signal 11)"),
                "\(outcome.stderr)")
        #expect(try folderContents(folder.file("out")) == ["take0.wav", "take2.wav", "take3.wav"])
        for n in [0, 2, 3] {
            let (ours, _) = try decode(folder.file("out/take\(n).wav"))
            let (theirs, _) = try decode(inputs[n])
            #expect(ours == theirs, "take\(n) differs from its input")
        }
        let objects = try outcome.stdout.split(separator: "\n").map { try jsonObject($0) }
        #expect(objects.count == 4)
        #expect(objects.map { $0["exitCode"] as? Int } == [nil, 70, nil, nil])
        #expect(objects.map { $0["frames"] as? Int } == [48_000, nil, 48_000, 48_000])
    }
}
