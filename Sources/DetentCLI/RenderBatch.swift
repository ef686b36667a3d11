import AudioFile
import Platform
import Synchronization

/// How one job of a batch ended.
enum RenderOutcome: Sendable {
    case rendered(RenderSummary)
    case failed(JobFailure)
    /// `--skip-existing` found its output.
    case skipped
}

/// Renders the jobs of a plan on up to `parallel` threads, each taking the next job when it
/// is free. Renders are independent (one engine, one reader, one writer each, each with its
/// own settings), so files render in parallel with no coordination beyond the next-job
/// counter and the report. A job that fails fails alone.
struct RenderBatch {
    let entries: [BatchEntry]
    let parallel: Int
    let report: RenderReport

    /// Runs every job (stopping early on Ctrl-C/SIGTERM) and returns the outcomes in the
    /// entries' order; nil for jobs never started.
    func run() -> [RenderOutcome?] {
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
        let work: @Sendable () -> Void = { [renders, report] in
            while !InterruptSignal.isSet {
                let n = next.add(1, ordering: .relaxed).oldValue
                guard n < renders.count else { return }
                let (index, job, settings) = renders[n]
                let outcome: RenderOutcome = switch Self.render(job, index: index, settings: settings, report: report) {
                case .success(let summary): .rendered(summary)
                case .failure(let error): .failed(JobFailure(error))
                }
                outcomes.withLock { $0[index] = outcome }
                report.finished(index, outcome)
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

    static func render(_ job: RenderJob, index: Int, settings: RenderSettings, report: RenderReport)
        -> Result<RenderSummary, AudioFileError>
    {
        var settings = settings
        settings.container = job.container
        settings.subtype = settings.subtype ?? job.subtype
        do {
            let summary = try OfflineRenderer.render(
                input: job.input, output: job.output, settings: settings,
                progress: { report.progress(index, $0) },
                isCancelled: { InterruptSignal.isSet })
            return .success(summary)
        } catch {
            return .failure(error)
        }
    }
}
