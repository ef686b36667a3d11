import Synchronization

/// A thread of its own doing queued jobs one at a time, in order, with a bounded queue: work
/// that may be slow (a plug-in lookup, loading a plug-in for a chain edit) taken off a thread
/// that must keep answering (OSC's reader). A job offered while ``limit`` wait is refused, so
/// a flood of requests costs no memory and delays no one else.
package final class SerialWorker: @unchecked Sendable {
    /// What the thread and the callers share.
    private final class Jobs: @unchecked Sendable {
        let state = Mutex<(queue: [@Sendable () -> Void], running: Bool)>(([], true))
        let ready = Semaphore()
    }

    private let jobs = Jobs()
    private var thread: NamedThread?
    /// How many jobs may wait.
    package let limit: Int

    /// Starts the thread, called `name`.
    package init(name: String, limit: Int = 16) throws(SystemCallError) {
        self.limit = limit
        let jobs = self.jobs
        thread = try NamedThread(name: name) {
            while true {
                jobs.ready.wait()
                let next: (@Sendable () -> Void)?? = jobs.state.withLock { state in
                    guard state.running else { return .some(nil) }
                    return state.queue.isEmpty ? nil : .some(state.queue.removeFirst())
                }
                switch next {
                case .some(let job?): job()
                case .some(nil): return
                case nil: continue
                }
            }
        }
    }

    /// Queues `job`; false (not queued) when ``limit`` jobs wait already or the worker stopped.
    @discardableResult
    package func offer(_ job: @escaping @Sendable () -> Void) -> Bool {
        let taken = jobs.state.withLock { state in
            guard state.running, state.queue.count < limit else { return false }
            state.queue.append(job)
            return true
        }
        if taken { jobs.ready.signal() }
        return taken
    }

    /// Stops taking jobs, lets the one running finish and drops the rest; waits for the
    /// thread unless called on it.
    package func stop() {
        let wasRunning = jobs.state.withLock { state in
            defer { state.running = false; state.queue.removeAll() }
            return state.running
        }
        guard wasRunning, let thread else { return }
        jobs.ready.signal()
        if !thread.isCurrent { thread.join() }
    }

    deinit { stop() }
}
