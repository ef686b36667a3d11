import Glibc

/// A process ID, for code that needs no C module.
package typealias ProcessID = pid_t

/// This process: its ID, its folder, the machine it runs on, and the ways out.
package enum ThisProcess {
    /// The process ID (for a child that watches its parent, an NSM announcement, a name of
    /// its own).
    package static var id: pid_t { getpid() }

    /// The user this process runs as (its effective user id).
    package static var userID: UserID { geteuid() }

    /// The file mode creation mask (`umask`), read once, when first needed.
    ///
    /// It is read from `/proc/self/status` (Linux 4.7 and later): the other way, setting the
    /// mask and setting it back, leaves a moment in which a file another thread creates gets
    /// the wrong permissions — wider than the user asked, with a mask such as 077. That way
    /// is kept only for a system without the line.
    package static let creationMask: FilePermissions = {
        if let bytes = try? BoundedFileReader.read(path: "/proc/self/status", limit: 1 << 16),
           let mask = statusMask(String(decoding: bytes, as: UTF8.self)) {
            return mask
        }
        let mask = umask(0o022)
        umask(mask)
        return FilePermissions(rawValue: mask)
    }()

    /// The `Umask:` line of a `/proc/PID/status` text (octal), nil when there is none.
    static func statusMask(_ status: String) -> FilePermissions? {
        for line in status.split(separator: "\n") where line.hasPrefix("Umask:") {
            return CModeT(line.dropFirst("Umask:".count).trimmingPrefix { $0 == " " || $0 == "\t" }, radix: 8)
                .map { FilePermissions(rawValue: $0) }
        }
        return nil
    }

    /// The current folder, or `/` when it cannot be named (removed, or too long).
    package static var currentFolder: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "/"
    }

    /// The processors online now (at least 1).
    package static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The processor's name as `uname` gives it (`x86_64`, `aarch64`); nil when it will not say.
    package static var machine: String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        return withUnsafeBytes(of: names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The user's home folder from the password database (for when `HOME` is unset), or `/`.
    package static var homeFromPasswordDatabase: String {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    /// Flushes C's standard streams (what Swift's `print` wrote), before a prompt is
    /// answered or the process ends without unwinding.
    package static func flushOutput() {
        fflush(nil)
    }

    /// Ends the process with `status`, flushing C's streams and running exit handlers, as
    /// returning from `main` would.
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Sleeps until a signal arrives (a program whose threads do all the work).
    package static func waitForSignal() {
        pause()
    }

    /// Ends the process now with `status`, running no exit handlers and flushing nothing: for
    /// a forked child, a second Ctrl-C, or a process whose parent has gone, where anything
    /// more could block or run code meant for another process.
    package static func exitNow(_ status: Int32) -> Never {
        _exit(status)
    }
}
