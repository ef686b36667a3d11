import OfflineRender
import Platform
import Rig

/// One batch thread's worker process, when the batch hosts plug-ins: the jobs render in it
/// (``RenderWorker``), so that a plug-in that crashes — in `run()`, or in its cleanup after
/// the output was written — takes down that process alone.
///
/// This process owns the outputs' names: a worker writes a job's temporary file and says it
/// is complete, and only then is it named here. When the worker dies instead, the job it
/// was rendering fails with one line naming the plug-in and the signal, its temporary file
/// is removed (the worker's lock on it died with it, ``AbandonedOutputs``), and the jobs after
/// it go to a new worker. Two jobs are sent at a time, so the worker begins the next as soon
/// as it has told of one. Ctrl-C and SIGTERM are passed on to the worker, which stops its
/// render the way one in this process does and begins no other.
package final class RenderWorkerProcess {
    /// A job of the batch: its place in the batch, its files and settings.
    package typealias Job = (index: Int, job: RenderJob, settings: RenderSettings)

    private let launch: RenderWorkerLaunch
    private let report: RenderReport
    private var worker: RenderWorkerLaunch.Worker?
    /// The jobs sent to the worker (or to be sent to the next), oldest first: the worker
    /// renders them in this order, so the first is the one under way.
    private var queue: [Job] = []
    private var sent = 0
    private var signalled = false

    package init(launch: RenderWorkerLaunch, report: RenderReport) {
        self.launch = launch
        self.report = report
    }

    /// Renders the jobs `next` hands out until it has none (or Ctrl-C/SIGTERM), calling
    /// `finished` with each job's outcome; a job never begun gets none.
    package func run(next: () -> Job?, finished: (Int, RenderOutcome) -> Void) {
        defer { finish() }
        var exhausted = false
        while true {
            while queue.count < 2 && !exhausted && !InterruptSignal.isSet {
                guard let job = next() else {
                    exhausted = true
                    break
                }
                queue.append(job)
            }
            guard let head = queue.first else { return }
            if worker == nil {
                // After a crash and a signal: what is left is not begun.
                if InterruptSignal.isSet { return }
                do {
                    worker = try launch.take()
                    sent = 0
                } catch {
                    queue.removeFirst()
                    finished(head.index, .failed(CommandFailure("\(head.job.input): cannot start a render worker process (\(error))",
                                                            exitCode: 71)))
                    continue
                }
            }
            while sent < queue.count, let worker {
                worker.channel.send("render \(queue[sent].index)")
                sent += 1
            }
            let outcome = awaitOutcome(of: head)
            queue.removeFirst()
            sent = max(0, sent - 1)
            if let outcome { finished(head.index, outcome) }
        }
    }

    /// Waits for the worker's word on `head`, the job it renders now; nil when it was not begun.
    private func awaitOutcome(of head: Job) -> RenderOutcome? {
        guard let worker else { return nil }
        let (index, job, settings) = head
        while true {
            switch worker.channel.receive(waiting: 50) {
            case .nothing:
                // Passed on once; a worker in the same process group may have had it already.
                let signal = InterruptSignal.received.load(ordering: .relaxed)
                if signal != 0 && !signalled {
                    signalled = true
                    Signals.send(signal, to: worker.pid)
                }
            case .end:
                return ended(job: job, settings: settings)
            case .line(let line):
                switch RenderWorkerMessage(line: line) {
                case .progress(index, let progress)?:
                    report.progress(index, progress)
                case .rendered(index, let file, let temporary)?:
                    guard let temporary else { return .rendered(file) }
                    defer { worker.channel.send("named \(index)") }
                    if InterruptSignal.isSet {
                        PathString.remove(temporary)
                        return .failed(CommandFailure(AudioFileError.cancelled(input: job.input, output: job.output)))
                    }
                    do {
                        try PendingOutput.name(temporary: temporary, as: job.output, overwrite: settings.overwrite)
                        return .rendered(file)
                    } catch {
                        return .failed(CommandFailure(error))
                    }
                case .failed(index, let description, let exitCode)?:
                    return .failed(CommandFailure(description, exitCode: exitCode))
                case .notStarted(index)?:
                    return nil
                default:
                    continue
                }
            }
        }
    }

    /// Ends the worker: it releases the outputs it was told are named, and exits when its
    /// socket closes.
    @discardableResult
    private func finish() -> ChildProgram.Status? {
        guard let worker else { return nil }
        worker.channel.close()
        self.worker = nil
        return Spawn.wait(worker.pid)
    }

    /// The worker ended during `job`: the job fails, saying how, and leaves no file.
    private func ended(job: RenderJob, settings: RenderSettings) -> RenderOutcome {
        let status = finish() ?? .exited(0)
        if !PathString.isSpecial(job.output) {
            AbandonedOutputs.remove(in: PathString.folder(of: job.output), for: [PathString.name(of: job.output)])
        }
        return .failed(Self.failure(of: job, settings: settings, status: status))
    }

    /// The line and status of a job whose worker ended with `status`.
    package static func failure(of job: RenderJob, settings: RenderSettings, status: ChildProgram.Status) -> CommandFailure {
        switch status {
        case .signaled(let signal) where !(InterruptSignal.isSet && [Signals.interrupt, Signals.terminate].contains(signal)):
            let name = Signals.name(of: signal)
            return CommandFailure("\(job.input): \(settings.processor.name) crashed (\(name), signal \(signal)); "
                              + "\(job.output) was not written", exitCode: 70)
        case _ where InterruptSignal.isSet:
            return CommandFailure(AudioFileError.cancelled(input: job.input, output: job.output))
        case .exited(let code), .signaled(let code):
            return CommandFailure("\(job.input): the render ended early (exit status \(code)); \(job.output) was not written",
                              exitCode: 70)
        }
    }
}
