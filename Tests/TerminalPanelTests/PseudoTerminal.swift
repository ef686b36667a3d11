#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// `detent` started on a pseudo-terminal of its own, as a terminal emulator would start it: a
/// new session whose controlling terminal is the pty's slave side, so resizes send SIGWINCH
/// and the kernel's job control applies. The test holds the master side: it types into it and
/// feeds what comes out to a ``ScreenEmulator``. It also keeps the slave open, to read the
/// terminal settings before and after.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    private let child: ChildProcess
    var pid: pid_t { child.pid }
    private(set) var screen: ScreenEmulator
    /// Everything the program wrote.
    private(set) var output: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `binary` with `arguments` in `directory`, through bash so that it starts with no
    /// core files (the tests send it fatal signals; `ulimit` has no spawn attribute) before
    /// bash replaces itself with the program under the same process id.
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

        // In a new session, opening the slave makes it the session's controlling terminal.
        do {
            child = try ChildProcess("/bin/bash", ["-c", #"ulimit -c 0; exec "$@""#, "bash", binary] + arguments,
                                     environment: environment, currentDirectory: directory,
                                     stdin: .open(slavePath), stdout: .same(as: 0), stderr: .same(as: 0), group: .session)
        } catch {
            close(m)
            close(sl)
            throw error
        }
    }

    deinit {
        if child.signal(SIGKILL) { child.wait() }
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
    func waitForExit(seconds: Double = 20) -> ChildProcess.Status? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            drain()
            if let status = child.status {
                drain()
                return status
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
