import AudioFile
import Glibc
import Platform

/// One batch thread's worker process, when the batch hosts plug-ins: the jobs render in it
/// (``RenderWorker``), so that a plug-in that crashes — in `run()`, or in its cleanup after
/// the output was written — takes down that process alone.
///
/// This process owns the outputs' names: a worker writes a job's temporary file and says it
/// is complete, and only then is it named here. When the worker dies instead, the job fails
/// with one line naming the plug-in and the signal, its temporary file is removed (the
/// worker's lock on it died with it, ``AbandonedOutputs``), and the next job starts a new
/// worker. Ctrl-C and SIGTERM are passed on to the worker, which stops its render the way
/// one in this process does.
final class RenderWorkerProcess {
    /// How a worker is started: this program again, with the batch's own command line and
    /// `--render-worker` (the batch is planned the same way in every run).
    struct Launch: Sendable {
        let executable: String
        let arguments: [String]

        /// The launch for `arguments` (the command line after the program's name, starting
        /// with the subcommand), or nil when it cannot be made.
        init?(arguments: [String]) {
            guard let render = arguments.firstIndex(of: "render") else { return nil }
            var worker = arguments
            // Right after the subcommand: after a `--`, the flag would be taken for an input.
            worker.insert("--render-worker", at: render + 1)
            executable = "/proc/self/exe"
            self.arguments = worker
        }
    }

    private let launch: Launch
    private let report: RenderReport
    private var worker: (pid: pid_t, channel: LineSocket)?
    private var signalled = false

    init(launch: Launch, report: RenderReport) {
        self.launch = launch
        self.report = report
    }

    /// Renders job `index` (`job` with `settings`, as planned) in the worker.
    func render(_ index: Int, job: RenderJob, settings: RenderSettings) -> RenderOutcome {
        let running: (pid: pid_t, channel: LineSocket)
        if let worker {
            running = worker
        } else {
            do {
                running = try start()
            } catch {
                return .failed(JobFailure("\(job.input): cannot start a render worker process (\(error))", exitCode: 71))
            }
            worker = running
        }
        guard running.channel.send(String(index)) else { return ended(job: job, settings: settings) }
        while true {
            switch running.channel.receive(waiting: 50) {
            case .nothing:
                // Passed on once; a worker in the same process group may have had it already.
                let signal = InterruptSignal.received.load(ordering: .relaxed)
                if signal != 0 && !signalled {
                    signalled = true
                    kill(running.pid, signal)
                }
            case .end:
                return ended(job: job, settings: settings)
            case .line(let line):
                switch RenderWorkerMessage(line: line) {
                case .progress(index, let progress)?:
                    report.progress(index, progress)
                case .rendered(index, let file, let temporary)?:
                    guard let temporary else { return .rendered(file) }
                    if InterruptSignal.isSet {
                        unlink(temporary)
                        return .failed(JobFailure(AudioFileError.cancelled(input: job.input, output: job.output)))
                    }
                    do {
                        try PendingOutput.name(temporary: temporary, as: job.output, overwrite: settings.overwrite)
                        return .rendered(file)
                    } catch {
                        return .failed(JobFailure(error))
                    }
                case .failed(index, let description, let exitCode)?:
                    return .failed(JobFailure(description, exitCode: exitCode))
                default:
                    continue
                }
            }
        }
    }

    /// Ends the worker: it releases its last output and exits when its socket closes.
    func finish() {
        guard let worker else { return }
        worker.channel.close()
        _ = Spawn.wait(worker.pid)
        self.worker = nil
    }

    private func start() throws(Errno) -> (pid: pid_t, channel: LineSocket) {
        let (channel, theirs) = try LineSocket.pair()
        defer { close(theirs) }
        // Swift's crash backtracer off: a plug-in's crash is told in one line, not a report.
        let pid = try Spawn.start(launch.executable, launch.arguments, environment: ["SWIFT_BACKTRACE": "enable=no"],
                                  descriptors: [0, 1, 2, theirs])
        return (pid, channel)
    }

    /// The worker ended during `job`: the job fails, saying how, and leaves no file.
    private func ended(job: RenderJob, settings: RenderSettings) -> RenderOutcome {
        guard let worker else { return .failed(JobFailure("\(job.input): the render worker is gone", exitCode: 70)) }
        worker.channel.close()
        let status = Spawn.wait(worker.pid)
        self.worker = nil
        if !PathString.isSpecial(job.output) {
            AbandonedOutputs.remove(in: PathString.folder(of: job.output), for: [PathString.name(of: job.output)])
        }
        switch status {
        case .signaled(let signal) where !(InterruptSignal.isSet && [SIGINT, SIGTERM].contains(signal)):
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
            return .failed(JobFailure("\(job.input): \(settings.processor.name) crashed (\(name), signal \(signal)); "
                                      + "\(job.output) was not written", exitCode: 70))
        case _ where InterruptSignal.isSet:
            return .failed(JobFailure(AudioFileError.cancelled(input: job.input, output: job.output)))
        case .exited(let code), .signaled(let code):
            return .failed(JobFailure("\(job.input): the render ended early (exit status \(code)); \(job.output) was not written",
                                      exitCode: 70))
        }
    }
}
