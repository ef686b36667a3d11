import Glibc

/// This process: its ID, and the way out that runs nothing more.
public enum ThisProcess {
    /// The process ID (for a child that watches its parent, an NSM announcement, a name of
    /// its own).
    public static var id: pid_t { getpid() }

    /// Ends the process now with `status`, running no exit handlers and flushing nothing: for
    /// a forked child, a second Ctrl-C, or a process whose parent has gone, where anything
    /// more could block or run code meant for another process.
    public static func exitNow(_ status: Int32) -> Never {
        _exit(status)
    }
}
