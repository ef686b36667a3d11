import Foundation
import Testing

/// `detent live` running as a program whose answers and messages a test reads while it runs:
/// its standard output and error go to files the test polls, its standard input is a pipe.
/// For servers the test process cannot join itself (PipeWire's libjack must be loaded when a
/// program starts), so every look at the program is through what it writes.
public final class LiveProgram: @unchecked Sendable {
    public let child: ChildProcess
    private let folder = TemporaryFolder()
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

    /// True while a close of a JACK client is still inside libjack in the program: its
    /// `jack-close` thread (the one that calls `jack_client_close`, see `BoundedClose`) is alive.
    /// What libjack does, seen from outside the program, not what the program says of it: a
    /// close of a client whose server died can deadlock in libjack (jackaudio/jack2#395).
    public var libjackCloseIsStuck: Bool {
        let tasks = "/proc/\(child.pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.contains { thread in
            (try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "jack-close"
        }
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
