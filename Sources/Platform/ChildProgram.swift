import CPlatform
import Glibc
import SystemPackage

/// Runs another program to its end and collects what it writes: the package's one way of
/// starting a program (the real-time audit's child, the tools that build its runtime).
///
/// The program gets /dev/null as its input and one pipe for both its output streams, read as
/// the data arrives, so no amount of output can stall it; it starts with every signal at its
/// default action and none blocked, and with no descriptor of this process but those three
/// (others may be open without close-on-exec in libraries). A time limit bounds a program
/// that hangs: past it, the program is killed and the outcome says so.
public enum ChildProgram {
    /// How a program ended.
    public enum Status: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// A finished program: how it ended, what it wrote (the first `outputLimit` bytes), and
    /// whether it was killed at the time limit.
    public struct Outcome: Sendable {
        public let status: Status
        public let output: [UInt8]
        public let timedOut: Bool

        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `path` (no search in `PATH`) with `arguments` and this process's environment with
    /// `environment` added (replacing variables of the same names).
    ///
    /// - Throws: the system's reason when the program cannot be started (`ENOENT`, `EACCES`).
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String] = [:],
        timeLimit: Duration? = nil, outputLimit: Int = 16 << 20
    ) throws(Errno) -> Outcome {
        var ends: [Int32] = [-1, -1]
        try systemCall { detent_pipe_cloexec(&ends) }
        var reading = ends[0]
        defer { close(reading) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        _ = detent_spawn_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = mergedEnvironment(environment).map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let started = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(ends[1])
        guard started == 0 else { throw Errno(rawValue: started) }

        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var output: [UInt8] = []
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while reading >= 0 {
            var wait: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero {
                    kill(pid, SIGKILL)
                    timedOut = true
                    break
                }
                wait = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            }
            var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
            guard (try? systemCall({ poll(&ready, 1, wait) })) != nil else { break }
            if ready.revents == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { buffer in
                (try? systemCall { read(reading, buffer.baseAddress, buffer.count) }) ?? 0
            }
            if count <= 0 { break }
            output += chunk[..<min(count, max(0, outputLimit - output.count))]
        }
        close(reading)
        reading = -1

        var raw: Int32 = 0
        _ = try? systemCall { waitpid(pid, &raw, 0) }
        let signal = raw & 0x7F
        return Outcome(status: signal == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(signal),
                       output: output, timedOut: timedOut)
    }

    /// This process's environment as `NAME=value` entries, with `changes` put in.
    private static func mergedEnvironment(_ changes: [String: String]) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if changes[name] == nil { entries.append(text) }
            pointer += 1
        }
        return entries + changes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}
