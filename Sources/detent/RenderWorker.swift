import AudioFile
import Platform

/// The worker process of a render that hosts plug-ins: `detent render … --render-worker`,
/// started by ``RenderWorkerProcess`` with the batch's own command line.
///
/// It plans the same batch (the plan is the same in every run), then renders the jobs it is
/// sent on descriptor 3, one number a line, and answers each with ``RenderWorkerMessage``s
/// on the same socket. A rendered job's output is left sealed under its temporary name for
/// the batch to name, and stays open and locked until the next job is asked for (or the
/// socket closes), by which time the batch has named it.
enum RenderWorker {
    /// The descriptor of the socket to the batch.
    static let socket: Int32 = 3

    static func serve(_ command: RenderCommand) {
        InterruptSignal.install()
        LibraryMessages.filter(dropping: MPEGDecoderMessages.isOwn)
        let channel = LineSocket(descriptor: socket)
        // The batch has written its manifest and found what to skip; the worker renders what
        // it is sent.
        var planned = command
        planned.batch.writeManifest = nil
        planned.batch.skipExisting = false
        let plan = Result { try BatchPlan(planned) }.mapError(JobFailure.init)
        let showsProgress = Console.stderrIsTerminal && !command.quiet
        var held: PendingOutput?
        while case .line(let line) = channel.receive(waiting: -1) {
            held?.release()
            held = nil
            guard let index = Int(String(decoding: line, as: UTF8.self)) else { break }
            let message: RenderWorkerMessage
            switch plan {
            case .failure(let failure):
                message = .failed(job: index, description: failure.description, exitCode: failure.exitCode)
            case .success(let plan):
                guard plan.entries.indices.contains(index), case .render(let settings) = plan.entries[index].action,
                      let job = plan.entries[index].job else {
                    message = .failed(job: index, description: "render worker: no job \(index) to render", exitCode: 70)
                    break
                }
                var lastSent = ContinuousClock.now
                let progress: (RenderProgress) -> Void = { p in
                    guard showsProgress, ContinuousClock.now - lastSent >= .milliseconds(100) else { return }
                    lastSent = ContinuousClock.now
                    channel.send(RenderWorkerMessage.progress(job: index, p).line)
                }
                switch RenderBatch.renderPending(job, settings: settings, progress: progress) {
                case .success(let (summary, pending)):
                    do {
                        try pending.seal()
                        message = .rendered(job: index, RenderedFile(summary), temporary: pending.isStream ? nil : pending.temporaryPath)
                        held = pending
                    } catch {
                        let failure = JobFailure(error)
                        message = .failed(job: index, description: failure.description, exitCode: failure.exitCode)
                    }
                case .failure(let error):
                    let failure = JobFailure(error)
                    message = .failed(job: index, description: failure.description, exitCode: failure.exitCode)
                }
            }
            guard channel.send(message.line) else {
                held?.discard()
                held = nil
                break
            }
        }
        held?.release()
    }
}
