import Glibc

/// The last resort: puts a terminal back when the process dies in a way its main loop never
/// sees — a crash (SIGSEGV, SIGILL from a Swift trap, SIGBUS, SIGFPE, SIGTRAP), an abort, a
/// SIGQUIT, or `exit` from somewhere deep.
///
/// A signal handler may only make async-signal-safe calls, so everything it needs is prepared
/// beforehand in memory that is never freed: the bytes that leave the program's terminal modes
/// and the settings found at start. The handler writes the bytes, restores the settings, puts
/// back the previous handler (Swift's crash reporter, or the default) and raises the signal
/// again, so it ends the process as it would have, reported on the normal screen.
package enum TerminalCrashRestore {
    /// What a restore needs, set up once by ``arm(fd:settings:leaving:)``.
    nonisolated(unsafe) private static var armed: UnsafeMutablePointer<Int32>?
    nonisolated(unsafe) private static var fd: Int32 = -1
    nonisolated(unsafe) private static var settings: UnsafeMutablePointer<termios>?
    nonisolated(unsafe) private static var bytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var byteCount = 0
    nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction>?
    nonisolated(unsafe) private static var installed = false

    /// The signals whose default action kills the process without the main loop noticing.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGQUIT]

    /// Prepares a restore on `fd`: writing `leave` (the bytes that leave the program's modes:
    /// the alternate screen, mouse reports), then applying `settings`; installs the handlers
    /// (once per process; `leave` is taken the first time).
    package static func arm(fd: Int32, settings original: TerminalSettings, leaving leave: [UInt8]) {
        if settings == nil {
            settings = .allocate(capacity: 1)
            armed = .allocate(capacity: 1)
            bytes = .allocate(capacity: leave.count)
            bytes!.initialize(from: leave, count: leave.count)
            byteCount = leave.count
            previous = .allocate(capacity: 64)
        }
        settings!.pointee = original.value
        self.fd = fd
        armed!.pointee = 1
        if !installed {
            installed = true
            for signal in fatalSignals {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { signal in
                    TerminalCrashRestore.run()
                    // Put back whoever handled this before (the crash reporter or the default)
                    // and let it have the signal: it is blocked until this handler returns,
                    // and a fault re-runs its instruction anyway.
                    if let previous = TerminalCrashRestore.previous, signal >= 0, signal < 64 {
                        sigaction(signal, previous + Int(signal), nil)
                    }
                    raise(signal)
                }
                sigemptyset(&action.sa_mask)
                action.sa_flags = 0
                sigaction(signal, &action, previous! + Int(signal))
            }
            atexit { TerminalCrashRestore.run() }
        }
    }

    /// The main loop restored the terminal itself: nothing left to do on a crash.
    package static func disarm() {
        armed?.pointee = 0
    }

    /// Restores the terminal if armed; async-signal-safe (write and tcsetattr only).
    package static func run() {
        guard let armed, armed.pointee == 1, let bytes, let settings else { return }
        armed.pointee = 0
        var offset = 0
        while offset < byteCount {
            let n = write(fd, bytes + offset, byteCount - offset)
            if n <= 0 { break }
            offset += n
        }
        tcsetattr(fd, TCSANOW, settings)
    }
}
