#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private tmux server running an interactive shell: a real terminal emulator with job
/// control, for what a pseudo-terminal alone cannot show — Ctrl-Z handing the terminal back to
/// the shell and `fg` taking it again. The server's socket lives in the test's own folder and
/// the server is killed at the end.
public final class TmuxSession {
    public let socket: String
    public let folder: String

    public init(folder: String, environment: [String: String], width: Int = 80, height: Int = 24) throws {
        self.folder = folder
        socket = folder + "/tmux.sock"
        var arguments = ["new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += ["env PS1='$ ' bash --norc --noprofile -i"]
        _ = try run(arguments)
    }

    /// A shell in `folder` with a UTF-8 xterm, its home, configuration and tmux's own files
    /// all in that folder: what the panel tests run `detent` under.
    public convenience init(shellIn folder: String) throws {
        try self.init(folder: folder, environment: [
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": folder, "XDG_CONFIG_HOME": folder, "TMUX_TMPDIR": folder,
        ])
    }

    /// Stops the server (and with it the shell and anything it runs).
    public func close() {
        _ = try? run(["kill-server"])
    }

    /// Runs `tmux -S SOCKET ARGS…` and returns its output.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/tmux", ["-f", "/dev/null", "-S", socket] + arguments).stdoutText
    }

    public func send(_ keys: String...) throws { try run(["send-keys", "-t", "0"] + keys) }
    public func type(_ text: String) throws { try run(["send-keys", "-t", "0", "-l", text]) }

    /// The pane's text.
    public func capture() throws -> String { try run(["capture-pane", "-p", "-t", "0"]) }

    /// A tmux format evaluated for the pane (`#{alternate_on}`).
    public func format(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds for its text, at most `seconds`.
    @discardableResult
    public func wait(seconds: Double = 20, until condition: (String) throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if try condition(capture()) { return true }
            if Date() >= deadline { return false }
            usleep(20_000)  // the poll's interval: tmux offers no event to wait on
        }
    }
}
