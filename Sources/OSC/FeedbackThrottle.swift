import Parameters

/// Which changed values to send to OSC subscribers now: each parameter at most once per
/// `interval`, and always its latest value — a value held back is sent at the first call
/// after the interval, so a knob that stops always ends where it stopped. Pure; time passed in.
package struct FeedbackThrottle: Sendable {
    package let interval: Duration
    private var sent: [ParameterIndex: (value: Double, at: ContinuousClock.Instant)] = [:]

    package init(interval: Duration = .milliseconds(20)) { self.interval = interval }

    /// The values to send for this snapshot, in index order; each is recorded as sent.
    package mutating func due(_ values: [ParameterIndex: Double], now: ContinuousClock.Instant) -> [(ParameterIndex, Double)] {
        var out: [(ParameterIndex, Double)] = []
        for (index, value) in values.sorted(by: { $0.key < $1.key }) {
            if let last = sent[index] {
                guard last.value != value, now - last.at >= interval else { continue }
            }
            sent[index] = (value, now)
            out.append((index, value))
        }
        return out
    }

    /// When the first value held back from `values` becomes due (after ``due(_:now:)`` at
    /// `now`): the moment to look again even if nothing else changes; nil when none is held.
    package func nextDue(_ values: [ParameterIndex: Double], now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var first: ContinuousClock.Instant?
        for (index, value) in values {
            guard let last = sent[index], last.value != value else { continue }
            let at = last.at + interval
            if first.map({ at < $0 }) ?? true { first = at }
        }
        return first
    }
}
