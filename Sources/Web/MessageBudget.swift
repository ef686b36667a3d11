/// How many messages one socket may send: a flood is dropped, not queued, so it never
/// delays another page or reaches the host as a backlog. Pure; time passed in.
package struct MessageBudget: Sendable {
    /// Messages allowed per second, beyond which the rest of the second's are dropped: far more
    /// than a hand on a knob sends (a drag sends one per pointer event, about 60 a second).
    package static let perSecond = 240

    private var windowStart: ContinuousClock.Instant?
    private var used = 0
    /// Messages dropped since the last report.
    package private(set) var dropped = 0

    package init() {}

    /// Whether a message arriving `now` is taken.
    package mutating func take(now: ContinuousClock.Instant) -> Bool {
        if let start = windowStart, now - start < .seconds(1) {
            guard used < Self.perSecond else {
                dropped += 1
                return false
            }
        } else {
            windowStart = now
            used = 0
        }
        used += 1
        return true
    }

    /// The count of dropped messages, reset.
    package mutating func takeDropped() -> Int {
        defer { dropped = 0 }
        return dropped
    }
}
