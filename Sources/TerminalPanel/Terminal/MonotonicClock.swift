import Glibc

/// Seconds on the monotonic clock: the timestamps KnobKit's gestures, double-clicks and label
/// timing are measured in. It never jumps when the wall clock is set.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
