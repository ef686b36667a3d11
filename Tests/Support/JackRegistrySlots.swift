import Foundation

/// The entries of JACK's machine-wide registry of servers that this test process may hold at
/// once. jackd2 keeps eight (`MAX_SERVERS` in its shared memory header) and a ninth server
/// ends with status 255 before it accepts a client, so tests that run side by side would
/// fail at random once more than eight of them want a server. Each ``JackServer`` holds one
/// entry from its first start until it is gone, including while it is killed and not yet
/// reclaimed (its entry stays until it is restarted under its name); a test that wants a
/// server while all are held waits until one is given back.
///
/// Two of the eight are left for others: a server the developer runs, and the brief
/// restarts that reclaim the entries of runs that ended.
enum JackRegistrySlots {
    static let limit = 6
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var held = 0

    /// Takes an entry, waiting while all are held, at most `timeout` seconds.
    static func take(for server: String, timeout: Double = 600) throws {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while held >= limit {
            if !condition.wait(until: deadline) {
                throw Timeout(what: "one of the \(limit) JACK servers this process may run at once is free for '\(server)'")
            }
        }
        held += 1
    }

    /// Gives an entry back and wakes one test waiting for it.
    static func giveBack() {
        condition.lock()
        held -= 1
        condition.signal()
        condition.unlock()
    }
}
