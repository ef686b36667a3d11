import Foundation
import Testing

/// How a headless `detent live` begins the line telling of an xrun the server reported. The
/// test servers run without real-time priority on a machine every suite shares, so a period
/// may be late for the server's scheduling alone; a test counting Detent's lines leaves these
/// out (the xrun tests themselves stall a client on purpose and read them).
public let serverXrunWarning = "detent: warning: the JACK server reported "

/// `detent live` running as a program whose answers and messages a test reads while it runs:
/// its standard output and error go to files the test polls, its standard input is a pipe.
/// For servers the test process cannot join itself (PipeWire's libjack must be loaded when a
/// program starts), so every look at the program is through what it writes.
public final class LiveProgram: @unchecked Sendable {
    public let child: ChildProcess
    private let folder = TemporaryFolder()
    /// Its `XDG_CONFIG_HOME`, of its own: the user presets it saves are in `detent/presets` there.
    public var configFolder: String { folder.file("config") }
    private var answered = 0
    /// The server it runs on, kept as long as the program is: a test that names only the
    /// program must not have its server shut down under it.
    private var server: (any LiveServer)?

    public init(_ arguments: [String], environment: [String: String]) throws {
        var environment = environment
        environment["XDG_CONFIG_HOME"] = folder.file("config")
        let out = folder.write("stdout", text: ""), err = folder.write("stderr", text: "")
        child = try ChildProcess(try BuiltProducts.detent, ["live"] + arguments, environment: environment,
                                 stdin: .pipe, stdout: .open(out), stderr: .open(err))
    }

    /// `detent live ARGUMENTS` on `server`, once it says it is running.
    public convenience init(on server: any LiveServer, _ arguments: [String]) throws {
        try self.init(server.liveArguments + arguments, environment: server.clientEnvironment)
        self.server = server
        // A program's start on a loaded 2-core machine (every test suite at once) has been
        // seen to take over 10 s before its first line.
        try waitForMessage("'detent' on JACK server '\(server.serverName)'", timeout: 30)
    }

    deinit {
        child.signal(SIGKILL)
        child.wait()
        server = nil
    }

    private func lines(_ name: String) -> [String] {
        let text = (try? String(contentsOfFile: folder.file(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// What it wrote on standard error so far.
    public var messages: [String] { lines("stderr") }

    /// Waits until a message containing `text` has been written.
    public func waitForMessage(_ text: String, timeout: Double = 10) throws {
        try waitUntil("detent says '\(text)' (it said \(messages))", timeout: timeout) {
            messages.contains { $0.contains(text) }
        }
    }

    /// True while a close of a JACK client is stuck inside libjack in the program: its
    /// `jack-close` thread (see `BoundedClose`) is alive and its stack, read by gdb, holds
    /// libjack's `jack_client_close` with libjack's own frames above it. What libjack does,
    /// seen from outside the program: a close of a client whose server died can deadlock in
    /// libjack (jackaudio/jack2#395). A close stuck in Detent's own code, before or around
    /// that call, is not this.
    public var libjackCloseIsStuck: Bool {
        let tasks = "/proc/\(child.pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        guard let closing = threads.first(where: { thread in
            (try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "jack-close"
        }), let stacks = backtraces() else {
            return false
        }
        // The closing thread's block: from its "Thread N (… (LWP tid) …):" line to the next.
        let lines = stacks.split(separator: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.contains("(LWP \(closing))") }) else { return false }
        let frames = lines[(start + 1)...].prefix { !$0.hasPrefix("Thread ") }.filter { $0.hasPrefix("#") }
        guard let close = frames.firstIndex(where: { $0.contains("jack_client_close") }), close > frames.startIndex else { return false }
        // Waiting inside libjack (or the C library under it), not in a callback of Detent's.
        let inner = frames[..<close]
        return inner.contains { $0.contains("libjack") } && !inner.contains { $0.contains("/Sources/") }
    }

    /// Where each of the program's threads is, read by gdb: a line per thread, its name and
    /// its innermost frames' functions. Said beside a wait that timed out, so that a hang
    /// names its place.
    public var threadStacks: String {
        guard let stacks = backtraces(frames: 6) else { return "gdb could not be run" }
        var threads: [String] = []
        for line in stacks.split(separator: "\n") {
            if line.hasPrefix("Thread ") {
                threads.append(String(line.split(separator: "\"").dropFirst().first ?? line.prefix(40)))
            } else if line.hasPrefix("#"), !threads.isEmpty, let at = line.range(of: " in ") {
                threads[threads.count - 1] += " ← " + line[at.upperBound...].prefix { $0 != " " && $0 != "(" }
            }
        }
        return threads.isEmpty ? "gdb said: \(stacks.suffix(300))" : threads.joined(separator: "\n")
    }

    /// Every thread's backtrace, `frames` deep (nil: whole), as gdb attached to the program
    /// prints it; nil when gdb cannot be run.
    private func backtraces(frames: Int? = nil) -> String? {
        let command = "thread apply all bt" + (frames.map { " \($0)" } ?? "")
        return (try? ChildProcess.run("/usr/bin/gdb", ["-p", "\(child.pid)", "-batch", "-nx", "-ex", command]))?.stdoutText
    }

    /// Types `command` and returns the answer line.
    public func ask(_ command: String, timeout: Double = 10) throws -> String {
        child.write(Array((command + "\n").utf8))
        answered += 1
        try waitUntil("detent answers '\(command)'", timeout: timeout) { lines("stdout").count >= answered }
        return lines("stdout")[answered - 1]
    }

    /// Ends the input and waits for the exit status.
    public func finish() -> Int32? {
        child.closeInput()
        return child.wait().exited
    }
}
