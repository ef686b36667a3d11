import CPlatform
import Glibc
import SystemPackage

/// Starts programs: the package's one `posix_spawn`, behind ``ChildProgram`` (a program run
/// to its end) and a render's worker processes (a program talked to while it runs).
///
/// The program starts with every signal at its default action and none blocked, and with no
/// descriptor of this process but the ones it is given (others may be open without
/// close-on-exec in libraries).
package enum Spawn {
    /// Starts `path` (no search in `PATH`) with `arguments` and this process's environment
    /// with `environment` put in (replacing variables of the same names); `descriptors[i]`
    /// becomes the program's descriptor `i` (a standard one this process lacks, /dev/null),
    /// and every other is closed in it.
    ///
    /// - Throws: the system's reason when the program cannot be started (`ENOENT`, `EACCES`).
    package static func start(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], descriptors: [Int32]
    ) throws(SystemCallError) -> pid_t {
        // Each descriptor is first copied above every target number, so that putting one in
        // place (dup2) never overwrites another still to be placed.
        let high = Int32(max(descriptors.count, 3) + 16)
        var copies: [Int32] = []
        defer { copies.forEach { close($0) } }
        for fd in descriptors {
            // A standard stream this process was started without becomes /dev/null.
            if fd <= 2 && fcntl(fd, F_GETFD) == -1 {
                copies.append(try systemCall("open") { open("/dev/null", O_RDWR | O_CLOEXEC) })
                continue
            }
            copies.append(try systemCall("fcntl") { fcntl(fd, F_DUPFD_CLOEXEC, high) })
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, copy) in copies.enumerated() { posix_spawn_file_actions_adddup2(&actions, copy, Int32(target)) }
        _ = detent_spawn_close_from(&actions, Int32(descriptors.count))

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
        guard started == 0 else { throw SystemCallError("posix_spawn", Errno(rawValue: started)) }
        return pid
    }

    /// A copy of this process (`fork`) that keeps its standard streams and `descriptor`, as
    /// its descriptor `target`, and no other: returns the copy's process id here, and 0 in the
    /// copy, which goes on from this call. Nil when this process runs more than one thread,
    /// whose copy would hold only the calling thread, and every lock another thread held
    /// locked for ever — so a copy is made only before any other thread starts.
    ///
    /// A copy costs a fraction of a millisecond where starting the program again (``start(_:_:environment:descriptors:)``)
    /// costs tens: it already holds everything this process has prepared.
    package static func copyOfThisProcess(keeping descriptor: Int32, as target: Int32) throws(SystemCallError) -> pid_t? {
        guard let threads = try? FolderEntries.names(in: "/proc/self/task"), threads.count == 1 else { return nil }
        return try systemCall("fork") { detent_fork_keeping(descriptor, target) }
    }

    /// Waits for the program `pid` to end and says how it ended.
    package static func wait(_ pid: pid_t) -> ChildProgram.Status {
        var raw: Int32 = 0
        _ = try? systemCall("waitpid") { waitpid(pid, &raw, 0) }
        let signal = raw & 0x7F
        return signal == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(signal)
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
