import Glibc

/// A counting semaphore the JACK callbacks post to wake the host's supervisor thread.
/// `sem_post` is async-signal-safe, which JACK's shutdown callback requires; the waiting
/// side has a timeout so the supervisor also runs its timers (reconnect back-off).
final class Wakeup: @unchecked Sendable {
    let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func post() { sem_post(semaphore) }

    /// Waits until posted or until `timeout` has passed. Returns true when posted.
    @discardableResult
    func wait(timeout: Duration) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var deadline = timespec(tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000,
                                tv_nsec: nanoseconds % 1_000_000_000)
        while sem_timedwait(semaphore, &deadline) != 0 {
            if errno != EINTR { return false }
        }
        // Several posts may have piled up: one pass of the supervisor handles them all.
        while sem_trywait(semaphore) == 0 {}
        return true
    }
}
