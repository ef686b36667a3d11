import Glibc
import Synchronization

/// The real-time priority (SCHED_FIFO) of this process's audio thread, as the audio server
/// last said (JACK's `jack_client_real_time_priority`); nil when it runs without real-time
/// scheduling. Helper processes that the audio thread waits for each period (an isolated
/// plug-in slot's) serve at the same priority, or a busy machine would make them late.
package enum AudioThreadPriority {
    private static let value = Atomic<Int>(0)

    package static var current: Int? {
        get { let p = value.load(ordering: .acquiring); return p > 0 ? p : nil }
        set { value.store(max(0, newValue ?? 0), ordering: .releasing) }
    }

    /// Puts the calling thread on SCHED_FIFO at `priority`; the system's reason when it may not.
    package static func adopt(_ priority: Int) -> String? {
        var parameters = sched_param()
        parameters.sched_priority = Int32(priority)
        let failed = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        return failed == 0 ? nil : String(cString: strerror(failed))
    }
}
