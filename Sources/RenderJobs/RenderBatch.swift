import OfflineRender
import Platform
import Synchronization
import Rig

/// How one job of a batch ended.
package enum RenderOutcome: Sendable {
    case rendered(RenderedFile)
    case failed(CommandFailure)
    /// `--skip-existing` found its output, or another run rendering it.
    case skipped(SkipReason)
}

/// Why `--skip-existing` passed over a job.
package enum SkipReason: Sendable {
    /// Its output exists: rendered before, or by another run while this one ran.
    case exists
    /// Another running render (a requeued shard, a second batch on the same folder) holds its
    /// output's temporary file: it is being rendered there.
    case renderingElsewhere
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
    /// `--skip-existing`: a job whose output appears while the batch runs (another run
    /// rendered it) is skipped, before it starts or when it would fail for it.
    package var skipExisting = false

    /// Runs every job (stopping early on Ctrl-C/SIGTERM) and returns the outcomes in the
    /// entries' order; nil for jobs never started.
    package func run() -> [RenderOutcome?] {
        let outcomes = Mutex([RenderOutcome?](repeating: nil, count: entries.count))
        var renders: [(index: Int, job: RenderJob, settings: RenderSettings)] = []
        for (index, entry) in entries.enumerated() {
            switch entry.action {
            case .render(let settings): renders.append((index, entry.job!, settings))
            case .skip(let reason): finish(index, .skipped(reason), into: outcomes)
            case .fail(let failure): finish(index, .failed(failure), into: outcomes)
            }
        }
        let next = Atomic(0)
        let work: @Sendable () -> Void = { [entries, renders, report, isolation, skipExisting] in
            let done = { (index: Int, outcome: RenderOutcome) in
                var outcome = outcome
                // Another run rendered the output while this one did: the job is done, not failed
                // (only a whole file ever appears under an output's name).
                if skipExisting, case .failed = outcome, let job = entries[index].job,
                   !PathString.isSpecial(job.output), PathString.exists(job.output) {
                    outcome = .skipped(.exists)
                }
                outcomes.withLock { $0[index] = outcome }
                report.finished(index, outcome)
            }
            let claim = { () -> (index: Int, job: RenderJob, settings: RenderSettings)? in
                while !InterruptSignal.isSet {
                    let n = next.add(1, ordering: .relaxed).oldValue
                    guard n < renders.count else { return nil }
                    // Rendered by another run since the batch was planned.
                    if skipExisting, !PathString.isSpecial(renders[n].job.output), PathString.exists(renders[n].job.output) {
                        done(renders[n].index, .skipped(.exists))
                        continue
                    }
                    return renders[n]
                }
                return nil
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
