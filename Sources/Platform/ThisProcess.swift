import Glibc

/// This process: its ID, and the way out that runs nothing more.
public enum ThisProcess {
    /// The process ID (for a child that watches its parent, an NSM announcement, a name of
    /// its own).
    public static var id: pid_t { getpid() }

    /// The file mode creation mask (`umask`), read once, when first needed: setting it and
    /// setting it back is the only way to learn it, so it is done once rather than per file.
    public static let creationMask: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    /// Ends the process now with `status`, running no exit handlers and flushing nothing: for
    /// a forked child, a second Ctrl-C, or a process whose parent has gone, where anything
    /// more could block or run code meant for another process.
    public static func exitNow(_ status: Int32) -> Never {
        _exit(status)
    }
}
