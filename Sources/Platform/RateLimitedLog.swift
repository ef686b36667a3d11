import Synchronization

/// One line at most per second; lines dropped in between are counted in the next. What a
/// server logs about its peers goes through one, so a peer cannot flood standard error.
package final class RateLimitedLog: Sendable {
    private let write: @Sendable (String) -> Void
    private let state = Mutex<(last: ContinuousClock.Instant?, dropped: Int)>((nil, 0))
    private let interval: Duration

    /// The shortest time between two lines of a log made now: a second, or what a test that
    /// checks every line of a server says (zero: nothing dropped, and no test waits).
    @TaskLocal package static var interval: Duration = .seconds(1)

    package init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
        interval = Self.interval
    }

    package func line(_ text: String) {
        let now = ContinuousClock.now
        let out: String? = state.withLock { s in
            if let last = s.last, now - last < interval {
                s.dropped += 1
                return nil
            }
            let dropped = s.dropped
            s = (now, 0)
            return dropped > 0 ? "\(text) (and \(dropped) more since)" : text
        }
        if let out { write(out) }
    }
}
