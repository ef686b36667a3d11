import OfflineRender
import Platform
import Synchronization

/// How one job of a batch ended.
package enum RenderOutcome: Sendable {
    case rendered(RenderedFile)
    case failed(CommandFailure)
    /// `--skip-existing` found its output.
    case skipped
}

/// Renders the jobs of a plan on up to `parallel` threads, each taking the next job when it
/// is free. Renders are independent (one engine, one reader, one writer each, each with its
/// own settings), so files render in parallel with no coordination beyond the next-job
/// counter and the report. A job that fails fails alone — and, when plug-ins are hosted, a
/// job whose plug-in crashes too: then each thread's jobs render in a worker process
/// (``RenderWorkerProcess``), and a crash costs that one file and a new worker.
package struct RenderBatch {
    package let entries: [BatchEntry]
    package let parallel: Int
    package let report: RenderReport
    /// How to start worker processes, when the jobs render in them (plug-ins hosted) rather
    /// than in this process.
    package var isolation: RenderWorkerLaunch?

    /// Runs every job (stopping early on Ctrl-C/SIGTERM) and returns the outcomes in the
    /// entries' order; nil for jobs never started.
    package func run() -> [RenderOutcome?] {
        let outcomes = Mutex([RenderOutcome?](repeating: nil, count: entries.count))
        var renders: [(index: Int, job: RenderJob, settings: RenderSettings)] = []
        for (index, entry) in entries.enumerated() {
            switch entry.action {
            case .render(let settings): renders.append((index, entry.job!, settings))
            case .skip: finish(index, .skipped, into: outcomes)
            case .fail(let failure): finish(index, .failed(failure), into: outcomes)
            }
        }
        let next = Atomic(0)
        let work: @Sendable () -> Void = { [renders, report, isolation] in
            let claim = { () -> (index: Int, job: RenderJob, settings: RenderSettings)? in
                guard !InterruptSignal.isSet else { return nil }
                let n = next.add(1, ordering: .relaxed).oldValue
                return n < renders.count ? renders[n] : nil
            }
            let done = { (index: Int, outcome: RenderOutcome) in
                outcomes.withLock { $0[index] = outcome }
                report.finished(index, outcome)
            }
            // With isolation, each thread's jobs render in a worker process of its own.
            if let isolation {
                RenderWorkerProcess(launch: isolation, report: report).run(next: claim, finished: done)
                return
            }
            while let (index, job, settings) = claim() {
                let outcome: RenderOutcome = switch Self.render(job, index: index, settings: settings, report: report) {
                case .success(let summary): .rendered(RenderedFile(summary))
                case .failure(let error): .failed(CommandFailure(error))
                }
                done(index, outcome)
            }
        }
        let threads = min(parallel, renders.count)
        if threads <= 1 {
            work()
        } else {
            // Threads of their own, not a pool: a render blocks on its reader and writer, and
            // `--jobs` may ask for more renders at once than there are cores.
            let workers = (0..<threads).compactMap { _ in try? NamedThread(name: "render-job", work) }
            if workers.isEmpty { work() }
            workers.forEach { $0.join() }
        }
        return outcomes.withLock { $0 }
    }

    private func finish(_ index: Int, _ outcome: RenderOutcome, into outcomes: borrowing Mutex<[RenderOutcome?]>) {
        outcomes.withLock { $0[index] = outcome }
        report.finished(index, outcome)
    }

    package static func render(_ job: RenderJob, index: Int, settings: RenderSettings, report: RenderReport)
        -> Result<RenderSummary, AudioFileError>
    {
        renderPending(job, settings: settings, progress: { report.progress(index, $0) }).flatMap { summary, pending in
            do throws(AudioFileError) {
                try pending.commit(overwrite: settings.overwrite)
                return .success(summary)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Renders `job` into its output's temporary file, not yet named (``OfflineRenderer/renderPending(input:output:settings:progress:isCancelled:)``).
    package static func renderPending(_ job: RenderJob, settings: RenderSettings, progress: (RenderProgress) -> Void)
        -> Result<(RenderSummary, PendingOutput), AudioFileError>
    {
        var settings = settings
        settings.container = job.container
        settings.subtype = settings.subtype ?? job.subtype
        do {
            return .success(try OfflineRenderer.renderPending(
                input: job.input, output: job.output, settings: settings,
                progress: progress, isCancelled: { InterruptSignal.isSet }))
        } catch {
            return .failure(error)
        }
    }
}
