import Platform
import Synchronization
import Testing
@testable import JackHost

/// The hand-off that lets the live host abandon a JACK client whose close hangs after its
/// server died (jackaudio/jack2#395) without ever freeing what the close may still use.
/// Every wait here has a deadline, so a broken hand-off fails the test instead of hanging it.
@Suite("Bounded close")
struct BoundedCloseTests {
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
        let hang = Semaphore(), released = Semaphore()
        let releases = Atomic(0)
        let closed = Atomic(false)
        let closing = BoundedClose(
            close: {
                _ = hang.wait(timeout: .seconds(60))
                closed.store(true, ordering: .releasing)
            },
            release: {
                // Never before the close has returned.
                let hasClosed = closed.load(ordering: .acquiring)
                #expect(hasClosed)
                releases.add(1, ordering: .relaxed)
                released.signal()
            })
        #expect(closing.run(timeout: .milliseconds(20)) == false)
        let early = releases.load(ordering: .relaxed)
        #expect(early == 0)
        hang.signal()  // the library lets go at last
        let releasedInTime = released.wait(timeout: .seconds(30))
        #expect(releasedInTime, "release never ran after the close returned")
        let late = releases.load(ordering: .relaxed)
        #expect(late == 1)
    }
}
