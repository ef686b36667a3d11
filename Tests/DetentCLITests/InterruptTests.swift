import TestSupport
import Foundation
import Testing

/// Ctrl-C and SIGTERM mid-render, and the progress line on a terminal.
@Suite("detent render: signals and progress")
struct InterruptTests {
    /// Renders from a FIFO the test feeds, so the render is certainly under way (and its
    /// temporary file exists) when the signal is sent: writing 1 MB into a pipe that holds
    /// 64 KB returns only once the render has read most of it.
    /// With a plug-in, the render runs in a worker process, to which the signal is passed on.
    @Test("a signal mid-render removes the unfinished output", arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))],
          [[], ["--plugin", "ladspa:1903"]])
    func interrupted(ending: (signal: Int32, status: Int32), plugin: [String]) throws {
        let (signal, status) = ending
        let folder = TemporaryFolder()
        #expect(mkfifo(folder.file("in.wav"), 0o600) == 0)
        let render = try ChildProcess(try BuiltProducts.detent, ["render", "in.wav", "-o", "out.wav"] + plugin,
                                      environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                      stderr: .pipe)

        Glibc.signal(SIGPIPE, SIG_IGN)  // the render stops reading; our writes then fail with EPIPE
        let fifo = open(folder.file("in.wav"), O_WRONLY)  // waits for the render to open it
        #expect(fifo >= 0)
        defer { close(fifo) }
        // A header promising a minute of 16-bit stereo, then 1 MB of it.
        let minute: UInt32 = 60 * 48_000 * 4
        let header = WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 16, data: [], declaredDataBytes: minute)
        #expect(writeAll(fifo, header + [UInt8](repeating: 0, count: 1 << 20)))
        // The folder is the render's home: finding `ladspa:1903` leaves its index in `.cache`.
        var outputs: [String] { folder.names.filter { $0 != ".cache" } }
        #expect(outputs.count == 2)
        #expect(outputs.first?.hasPrefix(".out.wav.detent-") == true)
        #expect(!outputs.contains("out.wav"))

        render.signal(signal)
        // Keep feeding until the render stops reading (a block or two after the signal).
        var fed = 1 << 20
        let chunk = [UInt8](repeating: 0, count: 65_536)
        while fed < Int(minute), writeAll(fifo, chunk) { fed += chunk.count }
        let outcome = render.finish()

        #expect(fed < Int(minute), "the render stopped before the end of the stream")
        #expect(outcome.status.exited == status)
        #expect(outcome.stderrText == "detent: in.wav: render interrupted; out.wav was not written\n")
        #expect(outputs == ["in.wav"])
    }

    /// A render reading a FIFO that delivers its header and a little audio, then nothing.
    /// `options` go on the command line (`--io-threads 0` asks for no I/O thread, which a
    /// stream must get all the same, or nothing could act on Ctrl-C while it stalls).
    func stalledRender(in folder: TemporaryFolder, options: [String] = []) throws -> (ChildProcess, Int32) {
        #expect(mkfifo(folder.file("in.wav"), 0o600) == 0)
        let render = try ChildProcess(try BuiltProducts.detent, ["render", "in.wav", "-o", "out.wav"] + options,
                                      environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                      stderr: .pipe)
        Glibc.signal(SIGPIPE, SIG_IGN)
        let fifo = open(folder.file("in.wav"), O_WRONLY)
        let header = WAV.bytes(formatTag: WAV.pcm, channels: 2, bitsPerSample: 16, data: [], declaredDataBytes: 48_000 * 4)
        #expect(writeAll(fifo, header + [UInt8](repeating: 0, count: 4_096)))
        try waitUntil("the render has made its temporary file") { folder.names.contains { $0.hasPrefix(".out.wav.detent-") } }
        // Stalled: every thread of the render asleep, its CPU time unchanged between two looks
        // (a Ctrl-C sent before its read blocks would be seen between blocks, and prove nothing).
        var last = ""
        try waitUntil("the render waits for the stream") {
            let now = Self.threadStates(render.pid)
            defer { last = now }
            return now == last && !now.contains(" R")
        }
        return (render, fifo)
    }

    /// Each thread's state and CPU time (`/proc/PID/task/TID/stat`), one line each.
    static func threadStates(_ pid: pid_t) -> String {
        let tasks = "/proc/\(pid)/task"
        let threads = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).sorted()
        return threads.map { tid in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return tid }
            // After the name: state, then 11 fields, then utime and stime.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 13 ? "\(tid) \(fields[0]) \(fields[11]) \(fields[12])" : tid
        }.joined(separator: "\n")
    }

    @Test("on a stalled stream the first Ctrl-C stops the render and removes its temporary file",
          arguments: [[], ["--io-threads", "0"]])
    func stalledFirstSignal(options: [String]) throws {
        let folder = TemporaryFolder()
        let (render, fifo) = try stalledRender(in: folder, options: options)
        defer { close(fifo) }
        render.signal(SIGINT)
        let status = render.wait(seconds: 10)
        #expect(status?.exited == 130, "the render ended on the first Ctrl-C")
        if status == nil { render.signal(SIGKILL) }
        #expect(render.finish().stderrText == "detent: in.wav: render interrupted; out.wav was not written\n")
        #expect(folder.names == ["in.wav"])
    }

    @Test("two Ctrl-C at once end the program and leave no temporary file")
    func stalledTwoSignals() throws {
        let folder = TemporaryFolder()
        let (render, fifo) = try stalledRender(in: folder)
        defer { close(fifo) }
        render.signal(SIGINT)
        render.signal(SIGINT)
        let status = render.wait(seconds: 10)
        #expect(status?.exited == 130)
        if status == nil { render.signal(SIGKILL) }
        _ = render.finish()
        #expect(folder.names == ["in.wav"])
    }

    @Test("Ctrl-C while a stream withholds its header ends the render at once, writing nothing")
    func beforeHeader() throws {
        let folder = TemporaryFolder()
        #expect(mkfifo(folder.file("in.wav"), 0o600) == 0)
        let render = try ChildProcess(try BuiltProducts.detent, ["render", "in.wav", "-o", "out.wav"],
                                      environment: Detent.environment(in: folder.path), currentDirectory: folder.path,
                                      stderr: .pipe)
        // Opened, and then nothing is written. The open returns once the render has opened the
        // fifo, which it does after watching for signals and saying it waits for its input:
        // the signal below finds it waiting, with no pause to guess at.
        let fifo = open(folder.file("in.wav"), O_WRONLY)
        defer { close(fifo) }
        render.signal(SIGINT)
        let status = render.wait(seconds: 10)
        #expect(status?.exited == 130)
        if status == nil { render.signal(SIGKILL) }
        #expect(render.finish().stderrText == "detent: interrupted while waiting for input; nothing was written\n")
        #expect(folder.names == ["in.wav"])
    }

    func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @Test("on a terminal, a progress line that is erased at the end; none with --quiet")
    func progress() throws {
        let folder = TemporaryFolder()
        folder.write("take.wav", WAV.float([Signal.noise(frames: 48_000, seed: 3)]))
        let shown = try runOnTerminal(["render", "take.wav", "--block-frames", "4096"], in: folder.path)
        #expect(shown.status == 0)
        #expect(shown.output.hasPrefix("\r\u{1B}[Ktake.wav  "))
        #expect(shown.output.contains("% "))
        #expect(shown.output.contains("× real time"))
        #expect(shown.output.hasSuffix("\r\u{1B}[K"))
        let quiet = try runOnTerminal(["render", "take.wav", "--force", "--quiet"], in: folder.path)
        #expect(quiet.status == 0)
        #expect(quiet.output == "")
    }

    /// Runs detent on a pseudo-terminal (through util-linux `script`, which copies what the
    /// terminal shows to its own stdout) and returns what it showed.
    func runOnTerminal(_ arguments: [String], in folder: String) throws -> (status: Int32?, output: String) {
        let command = ([try BuiltProducts.detent] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let outcome = try Detent.run(["-q", "-e", "-c", command, "/dev/null"], in: folder, prefix: ["/usr/bin/script"], direct: true)
        return (outcome.status, outcome.stdout)
    }
}
