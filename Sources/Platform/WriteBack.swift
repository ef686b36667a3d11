import CPlatform
import Synchronization

/// Starts writing bytes `offset ..< offset + count` of the file open on `descriptor` to its
/// disk, without waiting (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`), so that a later
/// `fsync` finds little left to do: a long output written stretch by stretch is on the disk
/// almost as soon as its last stretch is. Advice only; errors are ignored (a file system that
/// cannot is synced in full by the `fsync`).
package func startWriteBack(descriptor: Int32, offset: Int64, count: Int64) {
    _ = detent_start_writeback(descriptor, offset, count)
}

/// Starts the write-back of one file on a thread of its own, so that the thread writing the
/// file never waits while the kernel queues the disk writes: `sync_file_range` blocks its
/// caller for the time that takes (about 5 ms for each 8 MB on a virtual disk), which on the
/// writing thread would add up to a quarter of a long render's time.
///
/// ``request(upTo:)`` says how far the file is written; the thread asks the kernel to start
/// writing everything up to there that it has not asked for before. ``finish()`` stops and
/// joins the thread, before the file is synced and closed (the descriptor is never used after
/// that).
package final class WriteBackThread: @unchecked Sendable {
    private let descriptor: Int32
    private let requested = Atomic<Int64>(0)
    private let stopping = Atomic<Bool>(false)
    private let wake = Semaphore()
    private var thread: NamedThread?

    package init(descriptor: Int32) throws(SystemCallError) {
        self.descriptor = descriptor
        thread = try NamedThread(name: "write-back") { [self] in run() }
    }

    /// The file is written up to `end`: its write-back may start up to there.
    package func request(upTo end: Int64) {
        requested.store(end, ordering: .releasing)
        wake.signal()
    }

    /// Stops the thread once it has asked for what was requested, and waits for it.
    package func finish() {
        guard let thread else { return }
        self.thread = nil
        stopping.store(true, ordering: .releasing)
        wake.signal()
        thread.join()
    }

    deinit { finish() }

    private func run() {
        var started: Int64 = 0
        while true {
            wake.wait()
            let end = requested.load(ordering: .acquiring)
            if end > started {
                startWriteBack(descriptor: descriptor, offset: started, count: end - started)
                started = end
            }
            if stopping.load(ordering: .acquiring) { return }
        }
    }
}
