import Glibc
import Synchronization

/// A blocking close run on a thread of its own, waited for at most a deadline — for releasing
/// resources of a library that may hang (see ``JackSession/closeAfterServerLoss(timeout:)``).
///
/// `release` frees what `close` may still use. It runs exactly once, after `close` has
/// returned: on the waiting thread when the close finished in time, otherwise on the closing
/// thread when (if ever) it returns. An atomic decides which: 0 while closing, 1 once the
/// close returned, 2 once the waiter gave up — whoever moves it second releases.
final class BoundedClose: @unchecked Sendable {
    private let close: @Sendable () -> Void
    private let release: @Sendable () -> Void
    private let done = Wakeup()
    private let outcome = Atomic<Int>(0)

    init(close: @escaping @Sendable () -> Void, release: @escaping @Sendable () -> Void) {
        self.close = close
        self.release = release
    }

    /// Closes, waiting at most `timeout`. True when the close returned in time (and
    /// `release` has run); false when it is left running.
    func run(timeout: Duration) -> Bool {
        guard start() else {
            // No thread to spare: close here and wait as long as it takes.
            close()
            release()
            return true
        }
        done.wait(timeout: timeout)
        if outcome.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            return false
        }
        release()
        return true
    }

    /// Starts the close on a detached thread; false when no thread could be made.
    private func start() -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let me = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, &attributes, { arg in
            let closing = Unmanaged<BoundedClose>.fromOpaque(arg!).takeRetainedValue()
            closing.close()
            if !closing.outcome.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
                closing.release()  // the waiter gave up
            }
            closing.done.post()
            return nil
        }, me)
        if created != 0 { Unmanaged<BoundedClose>.fromOpaque(me).release() }
        return created == 0
    }
}
