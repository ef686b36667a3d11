import CJack
import Foundation
import Testing
import TestSupport

/// A private JACK server with the dummy driver, started and stopped by a test: a unique
/// name, so tests never touch (or depend on) a server already running.
///
/// Sync mode (`-S`) makes the server wait for every client in each cycle instead of
/// skipping late ones, so on a busy machine the graph is only slower, never different.
///
/// JACK keeps a machine-wide registry of eight servers, and a server that dies without
/// shutting down (SIGKILL) keeps its entry until a server of the same name starts. So the
/// server is stopped with SIGTERM, a killed one is restarted under its own name, and jackd
/// runs under `timeout`, which shuts it down properly should the tests themselves die.
final class JackServer: @unchecked Sendable {
    let name: String
    let period: Int
    let sampleRate: Int
    private var wrapper: ChildProcess?
    private var pid: pid_t = 0

    private static let counter = Counter()
    /// The longest a test server may live, in seconds.
    private static let lifetime = 900

    init(period: Int = 256, sampleRate: Int = 48_000) throws {
        name = "detent-test-\(getpid())-\(Self.counter.next())"
        self.period = period
        self.sampleRate = sampleRate
        try start()
    }

    deinit { stop() }

    /// Starts jackd and waits until a client can connect.
    func start() throws {
        let p = try ChildProcess("/usr/bin/timeout", ["-s", "TERM", "-k", "10", "\(Self.lifetime)", "/usr/bin/jackd",
                                                      "--no-realtime", "-S", "-t", "5000", "-n", name,
                                                      "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"])
        wrapper = p
        try waitUntil("jackd '\(name)' accepts clients", timeout: 20) { self.accepts() }
        let children = "/proc/\(p.pid)/task/\(p.pid)/children"
        pid = pid_t((try String(contentsOfFile: children, encoding: .utf8)).split(separator: " ").first ?? "") ?? 0
        #expect(pid > 0, "jackd's process id")
    }

    /// Shuts the server down properly (it leaves JACK's registry).
    func stop() {
        kill(signal: SIGTERM)
    }

    /// Sends `signal` to jackd and waits for it to be gone. A server that does not shut
    /// down within five seconds (jackd can wait forever on a client that died) is killed,
    /// and its registry entry reclaimed by a brief restart under the same name.
    func kill(signal: Int32 = SIGKILL, reclaim: Bool = true) {
        guard let p = wrapper else { return }
        wrapper = nil
        Foundation.kill(pid, signal)
        if p.wait(seconds: 5) != nil { return }
        Foundation.kill(pid, SIGKILL)
        p.wait()
        if signal != SIGKILL && reclaim, (try? start()) != nil { kill(signal: SIGTERM, reclaim: false) }
    }

    /// Whether a client can open on this server right now.
    func accepts() -> Bool {
        var status = JackStatus(0)
        guard let probe = detent_jack_client_open_server("probe", JackNoStartServer, &status, name) else {
            return false
        }
        jack_client_close(probe)
        return true
    }
}

/// A thread-safe counter for unique names.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting until \(what)" }
}

/// Polls `condition` every few milliseconds until it holds; throws after `timeout` seconds.
/// (Polling a condition, never a fixed sleep standing in for one.)
func waitUntil(_ what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { throw Timeout(what: what) }
        usleep(2_000)
    }
}
