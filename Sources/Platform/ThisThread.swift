import Glibc

/// What the calling thread can do with its own time: give the processor up for a moment, or
/// sleep. Neither is for the audio thread.
package enum ThisThread {
    /// Lets another thread run before this one goes on (`sched_yield`): for a wait of at most
    /// a few microseconds on something another thread is finishing right now, where a sleep
    /// would cost far more than the wait.
    package static func yield() {
        sched_yield()
    }

    /// Sleeps for `duration` (`nanosleep`), the whole of it: a signal that interrupts the
    /// sleep does not cut it short. A negative duration does not sleep.
    package static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = max(duration, .zero).components
        var left = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }
}
