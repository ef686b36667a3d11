import AudioFile
import Platform
import Synchronization

/// Renders a list of jobs on up to `parallel` threads, each taking the next job when it is
/// free. Renders are independent (one engine, one reader, one writer each), so files render in
/// parallel with no coordination beyond the next-job counter and the report.
struct RenderBatch {
    let jobs: [RenderJob]
    let settings: RenderSettings
    let parallel: Int
    let report: RenderReport

    /// Runs every job (stopping early on Ctrl-C/SIGTERM) and returns the results in job order;
    /// nil for jobs never started.
    func run() -> [Result<RenderSummary, AudioFileError>?] {
        let results = Mutex([Result<RenderSummary, AudioFileError>?](repeating: nil, count: jobs.count))
        let next = Atomic(0)
        let work: @Sendable () -> Void = { [jobs, settings, report] in
            while !InterruptSignal.isSet {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < jobs.count else { return }
                let result = Self.render(jobs[index], index: index, settings: settings, report: report)
                results.withLock { $0[index] = result }
                report.finished(index, result)
            }
        }
        let threads = min(parallel, jobs.count)
        if threads <= 1 {
            work()
        } else {
            // Threads of their own, not a pool: a render blocks on its reader and writer, and
            // `--jobs` may ask for more renders at once than there are cores.
            let workers = (0..<threads).compactMap { _ in try? NamedThread(name: "render-job", work) }
            if workers.isEmpty { work() }
            workers.forEach { $0.join() }
        }
        return results.withLock { $0 }
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
