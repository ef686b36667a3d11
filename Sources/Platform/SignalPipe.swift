import Glibc

/// The one way Detent takes signals: each turned into a byte on a pipe (the self-pipe trick),
/// read where it is safe to act — the panel's `poll` loop, or a ``SignalWatcher``'s thread.
///
/// A signal handler may do almost nothing safely; these handlers only write the signal's
/// number to its pipe (saving and restoring `errno`). Stopping, restoring the terminal,
/// suspending, resizing: all of it happens where the numbers are read (``take()``). Each signal
/// goes to the pipe that installed it last, so a panel and a watcher in one program can split
/// them. The signals installed are unblocked in the calling thread, and so in the threads it
/// starts afterwards: a parent may hand them down blocked (some launchers and test runners do).
package final class SignalPipe {
    /// Each signal's pipe's write end, read by the handlers (a plain global: nothing else is
    /// safe there). Signal numbers on Linux are below 65.
    nonisolated(unsafe) private static var writeEnds = [Int32](repeating: -1, count: 65)

    package let readEnd: Int32
    private let writeEnd: Int32
    private var previous: [Int32: sigaction] = [:]

    /// A pipe taking `signals` (none yet: ``install(_:)`` them).
    package init(_ signals: [Int32] = []) throws(SystemCallError) {
        // Non-blocking both ways: a handler's write must never wait, and a reader drains the
        // read end without blocking.
        (readEnd, writeEnd) = try Pipe.make(nonBlocking: true)
        for signal in signals { install(signal) }
    }

    /// Puts this pipe's handler on `signal` (again, after ``setDefault(_:)``).
    package func install(_ signal: Int32) {
        guard signal > 0 && signal < Int32(Self.writeEnds.count) else { return }
        Self.writeEnds[Int(signal)] = writeEnd
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(SignalPipe.writeEnds[Int(signal)], &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var old = sigaction()
        sigaction(signal, &action, &old)
        if previous[signal] == nil { previous[signal] = old }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Gives `signal` its default action (to stop for real on suspend).
    package func setDefault(_ signal: Int32) {
        Signals.setDefault(signal)
    }

    /// Writes a byte no signal has (0) to the pipe: how a reader's thread is told to finish.
    func wakeReader() {
        var byte: UInt8 = 0
        _ = write(writeEnd, &byte, 1)
    }

    /// The signals that arrived since the last call, in order (0 for ``wakeReader()``).
    package func take() -> [Int32] {
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
    package func close() {
        for (signal, var action) in previous {
            sigaction(signal, &action, nil)
            if Self.writeEnds[Int(signal)] == writeEnd { Self.writeEnds[Int(signal)] = -1 }
        }
        previous.removeAll()
        closeDescriptor(writeEnd)
        closeDescriptor(readEnd)
    }
}

/// The few things done to a signal's disposition directly.
package enum Signals {
    // The signals Detent handles or sends, by name, so that code outside Platform needs no C
    // module for them.
    package static let hangUp = SIGHUP
    package static let interrupt = SIGINT
    package static let quit = SIGQUIT
    package static let illegalInstruction = SIGILL
    package static let trap = SIGTRAP
    package static let abort = SIGABRT
    package static let busError = SIGBUS
    package static let floatingPointError = SIGFPE
    package static let kill = SIGKILL
    package static let segmentationFault = SIGSEGV
    package static let terminate = SIGTERM
    package static let `continue` = SIGCONT
    package static let terminalStop = SIGTSTP
    package static let windowChange = SIGWINCH

    /// `signal` is ignored (a child that must outlive a terminal's Ctrl-C, say).
    package static func ignore(_ signals: [Int32]) {
        for signal in signals { Glibc.signal(signal, SIG_IGN) }
    }

    /// `signal` gets its default action back.
    package static func setDefault(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// The system's name for `signal` (`Segmentation fault`), or `signal N`.
    package static func name(of signal: Int32) -> String {
        strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
    }

    /// Sends `signal` to the process `pid`.
    package static func send(_ signal: Int32, to pid: pid_t) {
        Glibc.kill(pid, signal)
    }

    /// Sends `signal` to every process of this one's group (a job stopping itself: SIGTSTP).
    package static func sendToGroup(_ signal: Int32) {
        Glibc.kill(0, signal)
    }

    /// Ends the program by `signal`, as its default action would: for a program that caught
    /// it, cleaned up, and now dies of it so that its parent sees why.
    package static func dieOf(_ signal: Int32) {
        setDefault(signal)
        raise(signal)
    }
}

/// `close(2)`, under a name the class's own `close()` does not hide.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
