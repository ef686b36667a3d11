/// How long to wait before the next attempt to reach a server that went away: doubling
/// from `initial` up to `maximum`, so a server that returns at once is found at once and
/// one that stays away costs one cheap attempt every few seconds.
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(5))
/// backoff.delay(afterFailures: 0)   // 250 ms
/// backoff.delay(afterFailures: 3)   // 2 s
/// backoff.delay(afterFailures: 9)   // 5 s
/// ```
package struct Backoff: Sendable, Equatable {
    package var initial: Duration
    package var maximum: Duration

    package init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5)) {
        precondition(initial > .zero && maximum >= initial, "invalid back-off")
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait after `failures` consecutive failed attempts (0 before the first retry).
    package func delay(afterFailures failures: Int) -> Duration {
        var delay = initial
        var n = max(0, failures)
        while n > 0 && delay < maximum {
            delay = delay * 2
            n -= 1
        }
        return min(delay, maximum)
    }
}
