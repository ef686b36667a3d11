#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A private JACK server with the dummy driver, started and stopped by a test: a unique
/// name, so tests never touch (or depend on) a server already running.
///
/// Sync mode (`-S`) makes the server wait for every client in each cycle instead of
/// skipping late ones, so on a busy machine the graph is only slower, never different.
///
/// JACK keeps a machine-wide registry of eight servers, and a server that dies without
/// shutting down (SIGKILL, or a crash on its way out) keeps its entry until a server of the
/// same name starts. So the server is stopped with SIGTERM; one whose entry outlived it is
/// restarted under its own name when it goes; jackd runs under `timeout`, which shuts it
/// down properly should the tests themselves die; dead entries that earlier runs left (read
/// from the registry itself, ``JackRegistry``) are reclaimed before the first server; and
/// at most ``JackRegistrySlots/limit`` servers of this process exist at once. A server that
/// still cannot start fails with what jackd said and what the registry holds.
///
/// It only runs programs (`timeout`, `jackd`, `jack_lsp`) and links nothing of JACK, so
/// every test target that needs a server shares this one.
public final class JackServer: @unchecked Sendable {
    public let name: String
    public let period: Int
    public let sampleRate: Int
    /// The `timeout` process jackd runs under, and jackd's own process id: both set by a
    /// successful ``start()`` and only then.
    private var wrapper: ChildProcess?
    private var pid: pid_t = 0
    /// Killed, not shut down: its entry in JACK's registry of servers (eight at most) stays
    /// until a server of the same name starts, so the entry is reclaimed when this goes.
    private var unclean = false
    /// Whether this server holds one of ``JackRegistrySlots``, given back when it goes.
    private var holdsSlot = false

    private static let started = Mutex(0)
    /// The names of this process's server objects that exist: their entries are theirs to
    /// reclaim (a test may kill its server and start it again under the same name).
    private static let live = Mutex(Set<String>())
    /// Entries left by earlier runs are reclaimed once, before this process's first server.
    private static let reclaimedAtFirst: Void = { _ = reclaimLeftEntries() }()
    /// The longest a test server may live, in seconds.
    private static let lifetime = 900

    public init(period: Int = 256, sampleRate: Int = 48_000) throws {
        name = "detent-test-\(getpid())-\(Self.started.withLock { $0 += 1; return $0 })"
        self.period = period
        self.sampleRate = sampleRate
        Self.reclaimedAtFirst
        try JackRegistrySlots.take(for: name)
        holdsSlot = true
        Self.live.withLock { _ = $0.insert(name) }
        // A start that throws still ends in deinit, which gives the entry back.
        try start()
    }

    deinit {
        stop()
        // Killed, or crashed while it shut down: its entry is reclaimed under its name.
        if unclean || JackRegistry.deadEntries().contains(name), (try? start()) != nil { stop() }
        Self.live.withLock { _ = $0.remove(name) }
        removeSemaphores()
        if holdsSlot { JackRegistrySlots.giveBack() }
    }

    /// Removes the semaphores JACK left in /dev/shm for this server's clients
    /// (`jack_sem.<uid>_<server>_<client>`): a client that is killed, or whose server goes
    /// first, never removes its own, and every test run would add to them.
    private func removeSemaphores() {
        let folder = "/dev/shm"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in names where entry.hasPrefix("jack_sem.") && entry.contains("_\(name)_") {
            try? FileManager.default.removeItem(atPath: folder + "/" + entry)
        }
    }

    /// Starts jackd and waits until a client can connect. When it cannot start and the
    /// registry holds dead entries no test stands for, they are reclaimed and jackd tried again.
    public func start() throws {
        do {
            try launch()
        } catch {
            guard Self.reclaimLeftEntries() > 0 else { throw error }
            try launch()
        }
        unclean = false
    }

    /// Runs jackd with its messages in a file, which a failure to start quotes: jackd says
    /// why it could not start (a full registry, a name in use) only there.
    private func launch() throws {
        JackMetadataStore.clearIfUnused()
        let folder = TemporaryFolder()
        let log = folder.file("jackd.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        let p = try ChildProcess("/usr/bin/timeout", ["-s", "TERM", "-k", "10", "\(Self.lifetime)", "/usr/bin/jackd",
                                                      "--no-realtime", "-S", "-t", "5000", "-n", name,
                                                      "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"],
                                 stdout: .open(log), stderr: .same(as: 1))
        do {
            try p.awaitReady("jackd '\(name)'", timeout: 20) { accepts() }
            pid = try p.child("jackd '\(name)'")
            wrapper = p
        } catch {
            // `timeout` passes the signal on to jackd, and kills it if it has not ended 10 s later.
            p.signal(SIGTERM)
            p.wait()
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let banner = ["jackdmp", "Copyright", "This is free", "under certain"]
            let lines = said.split(separator: "\n").filter { line in !banner.contains { line.hasPrefix($0) } }
                .suffix(6).joined(separator: " | ")
            throw ChildProcess.Failure(description: "\(error); jackd said: \(lines); registry: \(JackRegistry.describe())")
        }
    }

    /// Shuts the server down properly (it leaves JACK's registry).
    public func stop() {
        kill(signal: SIGTERM)
    }

    /// Sends `signal` to jackd and waits for it to be gone. A server that does not shut
    /// down within five seconds (jackd can wait forever on a client that died) is killed,
    /// and its registry entry reclaimed by a brief restart under the same name.
    public func kill(signal: Int32 = SIGKILL, reclaim: Bool = true) {
        guard let p = wrapper else { return }
        wrapper = nil
        Glibc.kill(pid, signal)
        if p.wait(seconds: 5) != nil {
            if signal == SIGKILL { unclean = true }
            return
        }
        Glibc.kill(pid, SIGKILL)
        p.wait()
        unclean = true
        if signal != SIGKILL && reclaim, (try? start()) != nil { kill(signal: SIGTERM, reclaim: false) }
    }

    /// Reclaims the registry entries of test servers that died without shutting down and
    /// that no server object (of this process, or of another test run still going) stands for (a run that was killed, a
    /// jackd that crashed on its way out): each name is started and shut down again, which is
    /// how jackd frees a dead entry of its own name. Returns how many.
    static func reclaimLeftEntries() -> Int {
        var reclaimed = 0
        for server in JackRegistry.deadEntries() where server.hasPrefix("detent-test-") && !Self.live.withLock({ $0.contains(server) }) {
            // Another test run's server, killed on purpose, is that run's to start again.
            let parts = server.split(separator: "-")
            if parts.count == 4, let owner = pid_t(parts[2]), owner != getpid(), Glibc.kill(owner, 0) == 0 { continue }
            let p = try? ChildProcess("/usr/bin/timeout", ["-s", "TERM", "-k", "5", "20", "/usr/bin/jackd", "--no-realtime", "-n", server,
                                                          "-d", "dummy", "-r", "48000", "-p", "256"])
            guard let p else { continue }
            var environment = ProcessInfo.processInfo.environment
            environment["JACK_NO_START_SERVER"] = "1"
            try? p.awaitReady("jackd '\(server)'", timeout: 10) {
                (try? ChildProcess.run("/usr/bin/jack_lsp", ["--server", server], environment: environment))?.status.exited == 0
            }
            p.signal(SIGTERM)
            p.wait()
            reclaimed += 1
        }
        return reclaimed
    }

    /// Freezes jackd (SIGSTOP): a server that is there but answers nothing, as a wedged one.
    public func freeze() {
        if wrapper != nil { Glibc.kill(pid, SIGSTOP) }
    }

    /// Lets a frozen jackd run again (SIGCONT).
    public func thaw() {
        if wrapper != nil { Glibc.kill(pid, SIGCONT) }
    }

    /// Whether a client can open on this server right now: JACK's own `jack_lsp` opens one,
    /// as `detent` would, and never starts a server of its own.
    public func accepts() -> Bool {
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_NO_START_SERVER"] = "1"
        let probe = try? ChildProcess.run("/usr/bin/jack_lsp", ["--server", name], environment: environment)
        return probe?.status.exited == 0
    }
}
