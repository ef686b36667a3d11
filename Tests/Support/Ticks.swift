import Glibc

/// Calls `body` with 0, 1, 2… once every `nanoseconds` on the monotonic clock, up to `count`
/// times or until it returns true, and returns whether it did. Each call waits for an absolute
/// deadline, so the period does not drift with the time `body` takes: what a real-time
/// producer (a knob moved at 1 kHz, an audio callback every 5 ms) looks like to the code under
/// test.
@discardableResult
public func onTicks(everyNanoseconds period: Int, count: Int, _ body: (Int) -> Bool) -> Bool {
    var next = timespec()
    clock_gettime(CLOCK_MONOTONIC, &next)
    for i in 0..<count {
        if body(i) { return true }
        next.tv_nsec += period
        while next.tv_nsec >= 1_000_000_000 {
            next.tv_nsec -= 1_000_000_000
            next.tv_sec += 1
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil)
    }
    return false
}
