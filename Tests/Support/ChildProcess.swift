#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A program a test runs as a child process (`detent`, `jackd`, `script`, `tmux`), started
/// with `posix_spawn` on plain descriptors that this object alone owns.
///
/// Why not Foundation's `Process`: the tests of every target run in parallel in one process,
/// so starting a program must not disturb anything else that process has open. On Linux,
/// `Process` with `Pipe` and `FileHandle` does not promise that: under concurrency they can
/// close a descriptor number that another thread has meanwhile been given for a file of its
/// own (swiftlang/swift#57827) — seen here as a concurrent preset save whose `fsync` failed
/// with EBADF. Hence, here:
///
/// - every descriptor this type makes is close-on-exec from its creation (`pipe2` with
///   O_CLOEXEC), is held by one object and is closed exactly once;
/// - the child gets its three standard streams and nothing else: the spawn's file actions put
///   the intended pipe ends (or /dev/null) on 0, 1 and 2 and then close every descriptor from
///   3 up, so nothing another test has open stays open in the child. (Between the fork and
///   that close the child does briefly hold them: a file some test has open for writing
///   without close-on-exec can still make a concurrent exec of it fail with "Text file busy",
///   which is why tests copy binaries with `cp` rather than writing them themselves.)
/// - the child starts with every signal at its default action and none blocked, whatever the
///   test runner's threads block or ignore (this process ignores SIGPIPE, see below): the
///   SIGINT, SIGTERM and SIGTSTP tests depend on it;
/// - the child runs in a process group of its own, as it did under `Process`, so that
///   nothing it signals to its group (`kill(0, …)`) reaches the test runner — or, for a
///   terminal, in a session of its own.
///
/// Writing to a child that no longer reads must fail with EPIPE rather than kill the test
/// runner, so the first child started makes this process ignore SIGPIPE (and children get the
/// default action back, as above).
///
/// One test uses an instance at a time: the methods are not meant to be called concurrently.
public final class ChildProcess: @unchecked Sendable {
    /// What one of the child's standard streams is connected to.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe to this object: ``write(_:)`` feeds a piped stdin, ``finish()`` collects a
        /// piped stdout and stderr.
        case pipe
        /// A file the child opens for reading and writing. A terminal opened in a new session
        /// becomes that session's controlling terminal.
        case open(String)
        /// The same open file as the child's standard descriptor `fd`, which must come before
        /// this one (stderr as stdout).
        case same(as: Int32)
    }

    /// Where the child runs with respect to job control.
    public enum Group: Sendable {
        /// A process group of its own in this session.
        case processGroup
        /// A session of its own, as a terminal emulator starts a program (with ``Stream/open(_:)``
        /// of a terminal for its streams).
        case session
    }

    /// How a child ended: its exit status, or the signal that ended it — kept apart (unlike
    /// Foundation's `terminationStatus`), so that exiting with 2 and dying of signal 2 differ.
    /// Neither is set only when the status was lost (`waitpid` failed).
    public struct Status: Equatable, Sendable, CustomStringConvertible {
        public let exited: Int32?
        public let signal: Int32?

        /// Decodes a `waitpid` status (no stopped states: nothing waits with WUNTRACED).
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7F
            exited = signal == 0 ? (waitStatus >> 8) & 0xFF : nil
            self.signal = signal == 0 ? nil : signal
        }

        private init(exited: Int32?, signal: Int32?) {
            self.exited = exited
            self.signal = signal
        }

        static let lost = Status(exited: nil, signal: nil)

        public var description: String {
            if let exited { return "exit status \(exited)" }
            if let signal { return "signal \(signal)" }
            return "status lost"
        }
    }

    /// A finished child: how it ended and everything it wrote to its piped stdout and stderr.
    public struct Outcome: Sendable {
        public let status: Status
        public let stdout: [UInt8]
        public let stderr: [UInt8]

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// This process's ends of the pipes, nil once closed (or for a stream that is no pipe).
    private var input: Int32?
    private var output: Int32?
    private var errors: Int32?
    private let exit = Exit()

    /// Starts `executable` (a path: no search) with `arguments`. `environment` nil passes on
    /// this process's own; `currentDirectory` nil keeps this process's.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                currentDirectory: String? = nil, stdin: Stream = .null, stdout: Stream = .null,
                stderr: Stream = .null, group: Group = .processGroup) throws {
        Self.ignoreBrokenPipes()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of the pipes: closed here once the child has its copies.
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var started = false
        defer { if !started { for case let fd? in parentEnds { close(fd) } } }

        for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                let (read, write) = try Self.makePipe()
                let (mine, theirs) = fd == 0 ? (write, read) : (read, write)
                childEnds.append(theirs)
                parentEnds[Int(fd)] = mine
                posix_spawn_file_actions_adddup2(&actions, theirs, fd)
            case .open(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_RDWR, 0)
            case .same(let other):
                precondition(other < fd, "a stream can only copy one set up before it")
                posix_spawn_file_actions_adddup2(&actions, other, fd)
            }
        }
        _ = GlibcExtensions.addCloseFrom(&actions, 3)
        if let currentDirectory { _ = GlibcExtensions.addChdir(&actions, currentDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let grouping = group == .session ? GlibcExtensions.spawnSetSID : POSIX_SPAWN_SETPGROUP
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | grouping))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var child = pid_t()
        let result = envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        started = true
        pid = child
        (input, output, errors) = (parentEnds[0], parentEnds[1], parentEnds[2])
        if let input { _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK) }
        exit.collect(child)
    }

    /// A child still running when its test lets go of it (a test that failed or threw while
    /// waiting for it) is killed with its whole process group — a server under `timeout`, or
    /// what `detent` started — and waited for: left running, it would hold on to its JACK
    /// server's registry entry and its ports for the rest of the run and beyond.
    deinit {
        if exit.ifRunning({ kill(-pid, SIGKILL) == 0 || kill(pid, SIGKILL) == 0 }) == true { exit.wait(until: nil) }
        for case let fd? in [input, output, errors] { close(fd) }
    }

    /// Runs `executable` to its end and returns what it wrote. Its stdin is `stdin` through a
    /// pipe, or /dev/null when nil; its stdout and stderr are pipes, read as the data arrives
    /// while the input is written, so no amount of either can stall the child or the test.
    public static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                           currentDirectory: String? = nil, stdin: [UInt8]? = nil) throws -> Outcome {
        let child = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory,
                                     stdin: stdin == nil ? .null : .pipe, stdout: .pipe, stderr: .pipe)
        return child.collect(feeding: stdin ?? [])
    }

    /// Writes `bytes` to the child's piped stdin, waiting while the pipe is full. False when
    /// the child no longer reads it (or stdin is no pipe, or already closed).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard let fd = input else { return false }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EAGAIN {
                var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            } else if !(n < 0 && errno == EINTR) {
                return false
            }
        }
        return true
    }

    /// Closes the child's stdin: it reads end of input.
    public func closeInput() {
        if let fd = input { close(fd) }
        input = nil
    }

    /// Reads the child's piped stdout and stderr to their end (leaving stdin as it is) and
    /// waits for its exit.
    public func finish() -> Outcome { collect(feeding: nil) }

    /// Sends `signal` to the child; false once it has ended (its process id may be another
    /// process's by then, so nothing is sent).
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        exit.ifRunning { kill(pid, signal) == 0 } ?? false
    }

    /// How the child ended, nil while it runs.
    public var status: Status? { exit.current }

    /// Waits for the child to end.
    @discardableResult
    public func wait() -> Status { exit.wait(until: nil)! }

    /// Waits at most `seconds` for the child to end; nil if it still runs.
    @discardableResult
    public func wait(seconds: Double) -> Status? { exit.wait(until: Date(timeIntervalSinceNow: seconds)) }

    /// Reads the piped stdout and stderr to their end — writing `input` (if any) to the piped
    /// stdin meanwhile, then closing it — and waits for the exit. Every pipe is served as it
    /// becomes ready (poll), so a child filling one while the test waits on another cannot
    /// stall.
    private func collect(feeding input: [UInt8]?) -> Outcome {
        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var pending = input.map { $0[...] }
        if pending?.isEmpty == true {
            closeInput()
            pending = nil
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var ready: [pollfd] = []
            for fd in [output, errors].compactMap({ $0 }) { ready.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            if pending != nil, let fd = self.input { ready.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            if ready.isEmpty { break }
            if poll(&ready, nfds_t(ready.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in ready where entry.revents != 0 {
                if entry.events == Int16(POLLOUT), let bytes = pending {
                    let n = bytes.withUnsafeBytes { Glibc.write(entry.fd, $0.baseAddress, $0.count) }
                    if n > 0 { pending = bytes.dropFirst(n) }
                    // All written, or the child stopped reading (EPIPE): end of its input.
                    if pending?.isEmpty == true || (n < 0 && errno != EAGAIN && errno != EINTR) {
                        closeInput()
                        pending = nil
                    }
                } else {
                    let n = read(entry.fd, &buffer, buffer.count)
                    if n > 0 {
                        if entry.fd == output { stdout += buffer[..<n] } else { stderr += buffer[..<n] }
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        if entry.fd == output { output = nil } else { errors = nil }
                    }
                }
            }
        }
        return Outcome(status: wait(), stdout: stdout, stderr: stderr)
    }

    /// Ignores SIGPIPE in this process, once (see the type's documentation).
    private static let ignoringBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()
    private static func ignoreBrokenPipes() { ignoringBrokenPipes }

    /// A pipe whose ends are both close-on-exec from the start.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard GlibcExtensions.pipe2(&ends, O_CLOEXEC) == 0 else {
            throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }
}

/// The child's exit, collected by a thread of its own that waits for it, so that waiting with
/// a deadline is woken by the exit itself rather than by polling.
private final class Exit: @unchecked Sendable {
    private let condition = NSCondition()
    private var status: ChildProcess.Status?

    /// Starts the thread that waits for `pid`. It waits without reaping first, then reaps
    /// under the lock: until the status is set the process id is still the child's, so
    /// ``ifRunning(_:)`` never signals another process that has been given the same number.
    func collect(_ pid: pid_t) {
        Thread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            condition.lock()
            var raw: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &raw, 0) } while reaped < 0 && errno == EINTR
            status = reaped == pid ? ChildProcess.Status(waitStatus: raw) : .lost
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// How the child ended, nil while it runs.
    var current: ChildProcess.Status? {
        condition.lock()
        defer { condition.unlock() }
        return status
    }

    /// Waits for the exit until `deadline` (nil: for as long as it takes); nil if the child
    /// still runs then.
    func wait(until deadline: Date?) -> ChildProcess.Status? {
        condition.lock()
        defer { condition.unlock() }
        while status == nil {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        return status
    }

    /// Runs `body` while the child is known to run, with its exit held back until it returns.
    func ifRunning<T>(_ body: () -> T) -> T? {
        condition.lock()
        defer { condition.unlock() }
        return status == nil ? body() : nil
    }
}

extension ChildProcess {
    /// The process this one started (a server run under `timeout`: the test signals the
    /// server itself), or a failure naming `what` when there is none.
    public func child(_ what: String) throws -> pid_t {
        let listed = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
            .split(separator: " ").first
        guard let child = listed.flatMap({ pid_t($0) }), child > 0 else {
            throw Failure(description: "\(what) runs, but not as the child of timeout \(pid)")
        }
        return child
    }
}

extension ChildProcess {
    /// Waits until `ready()` (a server accepting clients, which announces nothing), asking
    /// every 10 ms. The pause is spent waiting for this process to end, the one signal there
    /// is: a server that fails to start ends the wait at once rather than at the deadline.
    public func awaitReady(_ what: String, timeout: Double, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !ready() {
            if let status = wait(seconds: 0.01) {
                throw Failure(description: "\(what) ended (\(status)) before it accepted clients")
            }
            if Date() > deadline { throw Timeout(what: "\(what) accepts clients") }
        }
    }
}
