import OfflineRender
import Platform
import Rig

/// The worker process of a render that hosts plug-ins (``RenderWorkerLaunch``): a copy of
/// the batch's process that holds its plan, or `detent render … --render-worker` started
/// with the batch's own command line, which plans the same batch (the plan is the same in
/// every run). It renders the jobs it is sent on descriptor 3 (`render N`), in order,
/// and answers each with ``RenderWorkerMessage``s on the same socket. A rendered job's output
/// is left sealed under its temporary name for the batch to name, and stays open and locked
/// until the batch says it has named it (`named N`); one the batch never named is removed
/// when the socket closes.
package enum RenderWorker {
    /// The descriptor of the socket to the batch.
    package static let socket: Int32 = 3

    /// Serves the batch of `command`, with its plan when the worker is a copy of the batch.
    package static func serve(_ command: RenderOptions, plan made: BatchPlan? = nil) {
        InterruptSignal.install()
        LibraryMessages.filter(dropping: MPEGDecoderMessages.isOwn)
        let channel = LineSocket(descriptor: socket)
        // The batch has written its manifest and found what to skip; the worker renders what
        // it is sent.
        var planned = command
        planned.batch.writeManifest = nil
        planned.batch.skipExisting = false
        let plan = { Result { try BatchPlan(planned) }.mapError(CommandFailure.init) }
        // Planned before the first job comes; again then if that failed (the batch may have
        // made the output folder meanwhile).
        var early: Result<BatchPlan, CommandFailure>? = made.map { .success($0) } ?? plan()
        let showsProgress = Console.stderrIsTerminal && !command.quiet
        var held: [Int: PendingOutput] = [:]
        defer { held.values.forEach { $0.discard() } }
        while case .line(let bytes) = channel.receive(waiting: -1) {
            let words = String(decoding: bytes, as: UTF8.self).split(separator: " ")
            guard words.count == 2, let index = Int(words[1]) else { return }
            if words[0] == "named" {
                held.removeValue(forKey: index)?.release()
                continue
            }
            guard words[0] == "render" else { return }
            if InterruptSignal.isSet {
                guard channel.send(RenderWorkerMessage.notStarted(job: index).line) else { return }
                continue
            }
            if case .failure = early { early = nil }
            let current = early ?? plan()
            early = current
            let message: RenderWorkerMessage
            switch current {
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
                        if !pending.isStream { held[index] = pending }
                    } catch {
                        let failure = CommandFailure(error)
                        message = .failed(job: index, description: failure.description, exitCode: failure.exitCode)
                    }
                case .failure(let error):
                    let failure = CommandFailure(error)
                    message = .failed(job: index, description: failure.description, exitCode: failure.exitCode)
                }
            }
            guard channel.send(message.line) else { return }
        }
    }
}
