import CPlatform
import Glibc

/// A counting semaphore (POSIX, unnamed) for handing work from one thread to another.
///
/// Timed waits measure their deadline on the monotonic clock (`sem_clockwait` with
/// `CLOCK_MONOTONIC`): `sem_timedwait` takes a wall-clock deadline, so setting the clock
/// (NTP stepping it, a user changing the time) would stretch or cut every wait in progress.
/// Interrupted waits resume with the same deadline.
package final class Semaphore: @unchecked Sendable {
    /// The semaphore itself, for code that may only call async-signal-safe functions: JACK's
    /// callbacks post with a plain `sem_post` on this pointer, from the audio thread and from
    /// the shutdown handler.
    package let pointer: UnsafeMutablePointer<sem_t>

    /// A semaphore holding `value` signals.
    package init(_ value: Int = 0) {
        pointer = .allocate(capacity: 1)
        sem_init(pointer, 0, UInt32(value))
    }

    deinit {
        sem_destroy(pointer)
        pointer.deallocate()
    }

    /// Adds one signal, waking one waiter.
    package func signal() { sem_post(pointer) }

    /// The posting end, for code that holds no reference (JACK's callbacks: no reference
    /// counting on the audio thread). It stays valid while this semaphore lives.
    package var poster: SemaphorePoster { SemaphorePoster(pointer) }

    /// Takes one signal, waiting as long as it takes.
    package func wait() {
        _ = try? systemCall("sem_wait") { sem_wait(pointer) }
    }

    /// Takes one signal if there is one, without waiting.
    package func tryWait() -> Bool {
        sem_trywait(pointer) == 0
    }

    /// Takes one signal, waiting at most `timeout` (measured on the monotonic clock).
    /// Returns true when it got one, false when the time ran out.
    @discardableResult
    package func wait(timeout: Duration) -> Bool {
        let deadline = Self.deadline(after: timeout, from: MonotonicClock.nowSpec())
        return withUnsafePointer(to: deadline) { deadline in
            (try? systemCall("sem_clockwait") { detent_sem_wait_monotonic(pointer, deadline) }) != nil
        }
    }

    /// Takes every signal there is without waiting; returns how many there were (several
    /// posts that piled up while nobody waited can then be handled in one pass).
    @discardableResult
    package func drain() -> Int {
        var count = 0
        while tryWait() { count += 1 }
        return count
    }

    /// `now + timeout` as a `timespec` (a negative timeout is none).
    static func deadline(after timeout: Duration, from now: timespec) -> timespec {
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        return timespec(tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000,
                        tv_nsec: nanoseconds % 1_000_000_000)
    }
}

/// A semaphore's posting end: a plain pointer, which JACK's callbacks hold in their context
/// and post through from the audio thread and from the shutdown handler. `sem_post` is
/// async-signal-safe and takes no lock: a compare-and-swap, plus one `FUTEX_WAKE` when a
/// thread sleeps on the semaphore.
package struct SemaphorePoster: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<sem_t>

    init(_ pointer: UnsafeMutablePointer<sem_t>) { self.pointer = pointer }

    /// Adds one signal, waking one waiter.
    @inlinable
    package func signal() { sem_post(pointer) }
}
