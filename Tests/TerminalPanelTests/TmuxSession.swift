#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// A private tmux server running an interactive shell: a real terminal emulator with job
/// control, for what a pseudo-terminal alone cannot show — Ctrl-Z handing the terminal back to
/// the shell and `fg` taking it again. The server's socket lives in the test's own folder and
/// the server is killed at the end.
final class TmuxSession {
    let socket: String
    let folder: String

    init(folder: String, environment: [String: String], width: Int = 80, height: Int = 24) throws {
        self.folder = folder
        socket = folder + "/tmux.sock"
        var arguments = ["new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += ["env PS1='$ ' bash --norc --noprofile -i"]
        _ = try run(arguments)
    }

    /// Stops the server (and with it the shell and anything it runs).
    func close() {
        _ = try? run(["kill-server"])
    }

    /// Runs `tmux -S SOCKET ARGS…` and returns its output.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/tmux", ["-f", "/dev/null", "-S", socket] + arguments).stdoutText
    }

    func send(_ keys: String...) throws { try run(["send-keys", "-t", "0"] + keys) }
    func type(_ text: String) throws { try run(["send-keys", "-t", "0", "-l", text]) }

    /// The pane's text.
    func capture() throws -> String { try run(["capture-pane", "-p", "-t", "0"]) }

    /// A tmux format evaluated for the pane (`#{alternate_on}`).
    func format(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds for its text, at most `seconds`.
    @discardableResult
    func wait(seconds: Double = 20, until condition: (String) throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if try condition(capture()) { return true }
            if Date() >= deadline { return false }
            usleep(20_000)  // the poll's interval: tmux offers no event to wait on
        }
    }
}
