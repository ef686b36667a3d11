import Glibc

/// The monotonic clock (`CLOCK_MONOTONIC`): it never jumps when the wall clock is set, so
/// what is measured on it (a gesture's timing, a wait's deadline) is never stretched or cut
/// by NTP or a user changing the time.
package enum MonotonicClock {
    /// Now, in seconds: the timestamps KnobKit's gestures, double-clicks and label timing
    /// are measured in.
    package static func now() -> Double {
        let ts = nowSpec()
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Now, as the `timespec` that waits with a deadline take.
    static func nowSpec() -> timespec {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts
    }
}
