import Glibc
import Synchronization
import Testing
@testable import JackHost

/// The hand-off that lets the live host abandon a JACK client whose close hangs after its
/// server died (jackaudio/jack2#395) without ever freeing what the close may still use.
@Suite("Bounded close")
struct BoundedCloseTests {
    /// A semaphore the test opens by hand.
    final class Gate: @unchecked Sendable {
        private var semaphore = sem_t()
        init() { sem_init(&semaphore, 0, 0) }
        deinit { sem_destroy(&semaphore) }
        func open() { sem_post(&semaphore) }
        func pass() { while sem_wait(&semaphore) != 0 && errno == EINTR {} }
    }

    @Test("a close that returns in time is released once, on the waiting thread, before run returns")
    func inTime() {
        let releases = Atomic(0)
        let closing = BoundedClose(close: {}, release: { releases.add(1, ordering: .relaxed) })
        #expect(closing.run(timeout: .seconds(30)))
        let count = releases.load(ordering: .relaxed)
        #expect(count == 1)
    }

    @Test("a close that hangs is abandoned at the deadline and released once, after it returns")
    func hangs() {
        let hang = Gate(), released = Gate()
        let releases = Atomic(0)
        let closed = Atomic(false)
        let closing = BoundedClose(
            close: {
                hang.pass()
                closed.store(true, ordering: .releasing)
            },
            release: {
                // Never before the close has returned.
                let hasClosed = closed.load(ordering: .acquiring)
                #expect(hasClosed)
                releases.add(1, ordering: .relaxed)
                released.open()
            })
        #expect(closing.run(timeout: .milliseconds(20)) == false)
        let early = releases.load(ordering: .relaxed)
        #expect(early == 0)
        hang.open()  // the library lets go at last
        released.pass()
        let late = releases.load(ordering: .relaxed)
        #expect(late == 1)
    }
}
