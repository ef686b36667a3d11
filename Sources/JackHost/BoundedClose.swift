import Platform
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
    private let done = Semaphore()
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
        do {
            try NamedThread.detach(name: "jack-close") { [self] in
                close()
                if !outcome.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
                    release()  // the waiter gave up
                }
                done.signal()
            }
            return true
        } catch {
            return false
        }
    }
}
