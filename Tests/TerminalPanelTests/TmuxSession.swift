#if canImport(Glibc)
import Glibc
#endif
import Foundation

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

    /// Runs `tmux -S SOCKET ARGS…` and returns its output (through a file). Spawned and
    /// reaped here rather than with Foundation's `Process`, whose wait does not return while a
    /// tmux server started by the command runs.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let path = folder + "/tmux.out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let script = closeInheritedDescriptors + #"; exec /usr/bin/tmux "$@""#
        let argv = (["/bin/bash", "-c", script, "bash", "-f", "/dev/null", "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = cleanSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, environ)
        guard result == 0 else { throw PseudoTerminal.Failure(description: "cannot run tmux: \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return try String(contentsOfFile: path, encoding: .utf8)
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
