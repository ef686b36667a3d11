import CJack
import Foundation
import Testing

/// A private JACK server with the dummy driver, started and stopped by a test: a unique
/// name, so tests never touch (or depend on) a server already running.
///
/// Sync mode (`-S`) makes the server wait for every client in each cycle instead of
/// skipping late ones, so on a busy machine the graph is only slower, never different.
final class JackServer: @unchecked Sendable {
    let name: String
    let period: Int
    let sampleRate: Int
    private var process: Process?

    private static let counter = Counter()

    init(period: Int = 256, sampleRate: Int = 48_000) throws {
        name = "detent-test-\(getpid())-\(Self.counter.next())"
        self.period = period
        self.sampleRate = sampleRate
        try start()
    }

    deinit { kill() }

    /// Starts jackd and waits until a client can connect.
    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        p.arguments = ["--no-realtime", "-S", "-t", "5000", "-n", name,
                       "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        try waitUntil("jackd '\(name)' accepts clients", timeout: 20) { self.accepts() }
    }

    /// Kills the server (SIGKILL unless told otherwise) and waits for it to be gone.
    func kill(signal: Int32 = SIGKILL) {
        guard let p = process else { return }
        process = nil
        Foundation.kill(p.processIdentifier, signal)
        p.waitUntilExit()
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
