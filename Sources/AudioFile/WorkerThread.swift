import Glibc

/// A POSIX thread running one closure, joined explicitly. The render's reader and writer run
/// on these rather than on a shared pool: they block on each other, which a pool of fixed
/// width could turn into a deadlock when several files render at once.
public struct WorkerThread: Sendable {
    private var id = pthread_t()

    /// Starts `body` on a new thread; nil (with `errno` set) when the system has none to give.
    public init?(_ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let started = pthread_create(&id, nil, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if started != 0 {
            Unmanaged<Box>.fromOpaque(context).release()
            errno = started
            return nil
        }
    }

    /// Waits for the closure to return.
    public func join() {
        pthread_join(id, nil)
    }
}

/// A counting semaphore (POSIX) for handing blocks from one thread to the next.
final class Semaphore: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    init(_ value: Int) {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, UInt32(value))
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() { sem_post(semaphore) }

    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }

    /// Takes one if there is one, without waiting.
    func tryWait() -> Bool {
        sem_trywait(semaphore) == 0
    }
}
