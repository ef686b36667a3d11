#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `detent` started on a pseudo-terminal of its own, as a terminal emulator would start it: a
/// new session whose controlling terminal is the pty's slave side, so resizes send SIGWINCH
/// and the kernel's job control applies. The test holds the master side: it types into it and
/// feeds what comes out to a ``ScreenEmulator``. It also keeps the slave open, to read the
/// terminal settings before and after.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    let pid: pid_t
    private(set) var screen: ScreenEmulator
    /// Everything the program wrote.
    private(set) var output: [UInt8] = []
    private(set) var exitStatus: (exited: Int32?, signal: Int32?)?

    /// glibc's POSIX_SPAWN_SETSID (a GNU extension the Swift module does not import): the
    /// child calls setsid() before the file actions run.
    static let spawnSetSID: Int32 = 0x80

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `binary` with `arguments` in `directory`, through bash so that it can be given
    /// that directory, no core files (the tests send it fatal signals) and none of the test
    /// runner's descriptors before it replaces the shell under the same process id.
    init(_ binary: String, _ arguments: [String], in directory: String, environment: [String: String],
         width: Int = 80, height: Int = 24) throws {
        var m: Int32 = -1, sl: Int32 = -1
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&m, &sl, nil, nil, &size) == 0, let name = ttyname(sl) else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(cString: name)
        master = m
        slave = sl
        for fd in [m, sl] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK)
        screen = ScreenEmulator(width: width, height: height)
        // Read before the child starts: once it runs it may switch to raw mode at any moment.
        var initial = termios()
        tcgetattr(sl, &initial)
        initialSettings = initial

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid, opening the slave makes it the new session's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = cleanSignalAttributes(flags: Self.spawnSetSID)
        defer { posix_spawnattr_destroy(&attributes) }

        let script = closeInheritedDescriptors + "; ulimit -c 0; cd \"$1\" && shift && exec \"$@\""
        let argv = (["/bin/bash", "-c", script, "bash", directory, binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, "/bin/bash", &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(description: "cannot start \(binary): \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
        close(slave)
    }

    /// The terminal settings as they were before the program started.
    let initialSettings: termios

    /// The terminal settings of the slave side now.
    func settings() -> termios {
        var t = termios()
        tcgetattr(slave, &t)
        return t
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, bytes.count - offset) }
            if n > 0 { offset += n } else { _ = pollOnce(POLLOUT, milliseconds: 50) }
        }
    }

    func resize(width: Int, height: Int) {
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        screen.resize(width: width, height: height)
    }

    private func pollOnce(_ events: Int32, milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: master, events: Int16(events), revents: 0)
        return poll(&fd, 1, milliseconds) > 0
    }

    /// Reads what is there into the screen.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return }
            output += buffer[0..<n]
            screen.feed(Array(buffer[0..<n]))
        }
    }

    /// Waits until `condition` holds for the screen, reading output as it comes; false when
    /// `seconds` pass first. Wakes on output only: no fixed sleeps.
    @discardableResult
    func wait(seconds: Double = 20, until condition: (ScreenEmulator) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            drain()
            if condition(screen) { return true }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            _ = pollOnce(POLLIN, milliseconds: Int32(min(left * 1000, 200)) + 1)
        }
    }

    /// Waits for the program to end; nil on timeout. Its last output may still be on its way
    /// through the terminal layer: wait for that with ``wait(seconds:until:)``.
    @discardableResult
    func waitForExit(seconds: Double = 20) -> (exited: Int32?, signal: Int32?)? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            drain()
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                drain()
                let signal = status & 0x7F
                exitStatus = signal == 0 ? ((status >> 8) & 0xFF, nil) : (nil, signal)
                return exitStatus
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            // The child's exit closes nothing we poll on, so look again every few milliseconds.
            _ = pollOnce(POLLIN, milliseconds: 10)
        }
    }
}

/// Two terminal settings are the same (flags and control characters).
func sameSettings(_ a: termios, _ b: termios) -> Bool {
    a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
        && withUnsafeBytes(of: a.c_cc, { Array($0) }) == withUnsafeBytes(of: b.c_cc, { Array($0) })
}

/// Spawn attributes that give the child no blocked signals and the default action for the
/// signals the panel and a shell care about, whatever the test runner's threads block or
/// ignore (a blocked SIGTSTP would make suspending impossible to test).
func cleanSignalAttributes(flags: Int32 = 0) -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var none = sigset_t()
    sigemptyset(&none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGWINCH, SIGPIPE, SIGQUIT, SIGCHLD] {
        sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return attributes
}

/// Bash that closes every descriptor above 2 the shell inherited. A child of the test runner
/// inherits whatever other tests have open without close-on-exec at that moment — say, a copy
/// of `detent` another test is writing — and a long-lived child holding such a file open for
/// writing would make that test's exec fail with "Text file busy".
let closeInheritedDescriptors =
    #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done"#
