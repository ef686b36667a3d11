import Glibc
import Platform

/// Signals turned into bytes on a pipe (the self-pipe trick), so the main loop sees them in
/// its `poll` along with the keyboard and acts on them there.
///
/// A signal handler may do almost nothing safely; these handlers only write the signal's
/// number to the pipe (saving and restoring `errno`). Restoring the terminal, suspending,
/// resizing — all of it happens on the main loop, which reads the numbers with ``take()``.
final class SignalPipe {
    /// The signals the panel handles: quit (INT, TERM, HUP), resize (WINCH), suspend and
    /// resume (TSTP, CONT).
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// The pipe's write end, read by the handlers (a plain global: nothing else is safe there).
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    let readEnd: Int32
    private var previous: [Int32: sigaction] = [:]

    init() throws(TerminalError) {
        // Non-blocking both ways: the handler's write must never wait, and the loop drains
        // the read end without blocking.
        let pipe: (read: Int32, write: Int32)
        do { pipe = try Pipe.make(nonBlocking: true) } catch {
            throw .system("cannot create a pipe for signals: \(error)")
        }
        readEnd = pipe.read
        Self.writeEnd = pipe.write
        for signal in Self.handled { install(signal) }
    }

    /// Puts the panel's handler on `signal` (again, after a suspend used the default).
    func install(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(SignalPipe.writeEnd, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var old = sigaction()
        sigaction(signal, &action, &old)
        if previous[signal] == nil { previous[signal] = old }
    }

    /// Gives `signal` its default action (to stop for real on suspend).
    func setDefault(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// The signals that arrived since the last call, in order.
    func take() -> [Int32] {
        var result: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            guard n > 0 else { break }
            result += buffer[0..<n].map { Int32($0) }
        }
        return result
    }

    /// Puts back the handlers found at start and closes the pipe.
    func close() {
        for (signal, var action) in previous { sigaction(signal, &action, nil) }
        previous.removeAll()
        let write = Self.writeEnd
        Self.writeEnd = -1
        closeDescriptor(write)
        closeDescriptor(readEnd)
    }
}

/// `close(2)`, under a name the class's own `close()` does not hide.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
