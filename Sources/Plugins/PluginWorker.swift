import CPluginKernel
import Glibc
import Platform
import Synchronization

/// The live worker: a thread that runs the work a plug-in's `run` hands off (LV2's worker
/// extension: loading a sample, an impulse response, a preset), so that the audio thread
/// never waits for it.
///
/// Requests and responses travel in lock-free rings (`DetentByteRing`) owned by each
/// instance record. The audio thread does not wake this thread (waking takes a system call):
/// the thread looks at the rings every ``pollInterval``, which adds at most that much to a
/// response that is due at the next cycle anyway. One thread serves every instance, so no
/// instance's `work` ever runs twice at once, as the extension requires.
final class PluginWorker: @unchecked Sendable {
    /// How often the thread looks for requests.
    static let pollInterval: Duration = .milliseconds(1)

    private let stopping = Atomic<Bool>(false)
    private var thread: NamedThread?

    /// Starts the thread for `count` instance records at `instances` (which must outlive
    /// ``stop()``).
    init(instances: UnsafeMutablePointer<DetentLV2Instance>, count: Int, name: String) throws(Errno) {
        let records = UnsafeSendable(instances)
        // The thread holds the worker until ``stop()`` ends it.
        thread = try NamedThread(name: "lv2-worker") { [self] in
            var request = timespec(tv_sec: 0, tv_nsec: Int(Self.pollInterval.components.attoseconds / 1_000_000_000))
            while !stopping.load(ordering: .acquiring) {
                var busy = false
                for i in 0..<count where records.pointer[i].worker != nil {
                    while detent_lv2_worker_step(records.pointer + i) != 0 { busy = true }
                }
                if !busy { nanosleep(&request, nil) }
            }
        }
    }

    /// Stops the thread and waits for it (its current work finishes first).
    func stop() {
        stopping.store(true, ordering: .releasing)
        thread?.join()
        thread = nil
    }
}

/// A pointer handed to another thread that is the only one to use it meanwhile.
private struct UnsafeSendable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<DetentLV2Instance>
    init(_ pointer: UnsafeMutablePointer<DetentLV2Instance>) { self.pointer = pointer }
}
