import CPluginKernel
import Platform
import Synchronization

/// The live worker: a thread that runs the work a plug-in's `run` hands off (LV2's worker
/// extension: loading a sample, an impulse response, a preset), so that the audio thread
/// never waits for it.
///
/// Requests and responses travel in lock-free rings (`DetentByteRing`) owned by each
/// instance record. One thread serves every instance, so no instance's `work` ever runs
/// twice at once, as the extension requires.
///
/// The thread sleeps on a counting semaphore that `detent_lv2_schedule_work` posts on the
/// audio thread right after it queued a request, as jalv and Ardour do; while no plug-in asks
/// for work it does not run at all. Why a post from the audio thread, although the render
/// path makes no system calls otherwise:
/// - `sem_post` takes no lock and never blocks: it is a compare-and-swap on the semaphore's
///   word, plus one `FUTEX_WAKE` system call when this thread is asleep on it. A wake does not
///   sleep or wait for anything a descheduled thread holds (unlike `pthread_cond_signal`,
///   which needs its mutex held to lose no wake-up, and which RealtimeSanitizer reports).
/// - It is made only in a cycle where the plug-in itself asked for work — a cycle that already
///   left the steady state — never in an idle one; a ring that is full refuses the request
///   without posting.
/// - Polling instead (every millisecond, before) woke this thread a thousand times a second
///   whether or not there was work: about 1.5 % of a core while idle, for a response that
///   the wake-up now starts at once. A longer poll would trade that CPU for every response's
///   latency. A flag the audio thread sets and another thread's timer reads has the same
///   trade.
/// So the cost moves from every idle moment to the cycles that queue work, where it is a
/// bounded, non-blocking call.
final class PluginWorker: @unchecked Sendable {
    private let stopping = Atomic<Bool>(false)
    /// Posted once per queued request (from the audio thread) and once by ``stop()``.
    private let wake = Semaphore(0)
    private let records: UnsafeSendable
    private let count: Int
    private var thread: NamedThread?

    /// Starts the thread for `count` instance records at `instances` (which must outlive
    /// ``stop()``), and points their `wake` at its semaphore. Call before the audio thread
    /// first runs the instances.
    init(instances: UnsafeMutablePointer<DetentLV2Instance>, count: Int, name: String) throws(SystemCallError) {
        records = UnsafeSendable(instances)
        self.count = count
        for i in 0..<count { instances[i].wake = wake.pointer }
        // The thread holds the worker until ``stop()`` ends it.
        thread = try NamedThread(name: "lv2-worker") { [self] in
            // A first look before the first wait: a plug-in may have queued work while it was
            // made (restoring its state), before `wake` was set.
            while !stopping.load(ordering: .acquiring) {
                for i in 0..<count where records.pointer[i].worker != nil {
                    while detent_lv2_worker_step(records.pointer + i) != 0 {}
                }
                wake.wait()
                // Posts that piled up while the rings were served: the next pass sees every
                // request they stand for (each was queued before its post).
                wake.drain()
            }
        }
    }

    /// Stops the thread and waits for it (its current work finishes first).
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        thread?.join()
        thread = nil
        for i in 0..<count { records.pointer[i].wake = nil }
    }
}

/// A pointer handed to another thread that is the only one to use it meanwhile.
private struct UnsafeSendable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<DetentLV2Instance>
    init(_ pointer: UnsafeMutablePointer<DetentLV2Instance>) { self.pointer = pointer }
}
