import OfflineRender
import Platform
import Rig

extension RenderOptions {
    /// Renders what these options ask, reporting each file as it ends, and returns the exit
    /// status: 0, the first failed file's, or 128 + the signal that interrupted it.
    /// `arguments` (the command line after the program's name) start a worker again after
    /// one crashed; with nil, every job renders in this process. A program of its own
    /// (`ownsProcess`) takes Ctrl-C to stop cleanly and filters libraries' noise on stderr; a
    /// library inside another program (Python) leaves both alone, and hands each file's JSON
    /// object to `lines` instead of stdout.
    ///
    /// - Throws: ``CommandFailure`` for a problem that concerns every job, before any renders.
    package func run(arguments: [String]?, ownsProcess: Bool = true,
                     lines: (@Sendable (String) -> Void)? = nil) throws(CommandFailure) -> Int32 {
        do { try check() } catch { throw CommandFailure(error) }
        if rendersMIDIAlone, let output { return try renderInstrument(to: output, ownsProcess: ownsProcess, lines: lines) }
        if inputs.isEmpty && batch.manifest == nil, let midiOut { return try renderMIDI(to: midiOut) }
        let plan: BatchPlan
        do {
            plan = try BatchPlan(self)
        } catch {
            throw CommandFailure(error)
        }

        // Workers are copies of this process made now, before any thread starts.
        let launch = isolates(plan) ? arguments.flatMap(RenderWorkerLaunch.init(arguments:)) : nil
        launch?.copyWorkers(min(plan.parallel, plan.renders), serving: plan, of: self)
        defer { launch?.dismissWaiting() }
        if ownsProcess {
            InterruptSignal.install()
            // libmpg123 prints its own warnings for odd MP3 frames; the render's line for the
            // file says what matters. Filtered when an input may be MPEG (a batch of many
            // files is not read ahead for it).
            if plan.entries.count > 16 || plan.entries.contains(where: { entry in
                entry.job.map { MPEGDecoderMessages.mayPrint(forInput: $0.input) } ?? false
            }) {
                LibraryMessages.filter(dropping: MPEGDecoderMessages.isOwn)
            }
        }
        var reporting = RenderReport.Options(progress: ownsProcess && Console.stderrIsTerminal && !quiet, json: json,
                                             counts: batch.isBatch && !quiet)
        if let lines {
            reporting.lines = lines
            reporting.tells = false
        }
        let report = RenderReport(entries: plan.entries, options: reporting)
        let outcomes = RenderBatch(entries: plan.entries, parallel: plan.parallel, report: report,
                                   isolation: launch, skipExisting: batch.skipExisting).run()
        report.close()

        let signal = InterruptSignal.received.load(ordering: .relaxed)
        if signal != 0 { return 128 + signal }
        for case .failed(let failure)? in outcomes { return failure.exitCode }
        return 0
    }

    /// Whether the jobs of `plan` render in worker processes (``RenderWorkerProcess``), so
    /// that a plug-in that crashes fails its file alone: when one hosts a plug-in. Built-in
    /// renders stay in this process, and so does a manifest read from stdin, which a worker
    /// started again could not read again, and a render that also writes `--midi-out` (one
    /// file, whose MIDI output a worker could not hand over).
    package func isolates(_ plan: BatchPlan) -> Bool {
        guard !inProcess, batch.manifest != "-", midiOut == nil else { return false }
        return plan.entries.contains { entry in
            if case .render(let settings) = entry.action { !settings.processor.isBuiltIn } else { false }
        }
    }

    /// An instrument (or any processor that takes MIDI) rendered from `--midi` alone into the
    /// audio file `path`: as long as the MIDI file plus `--tail`, at `--rate` (48 kHz), in
    /// `--channels` (2), the output's container and encoding as for any render.
    private func renderInstrument(to path: String, ownsProcess: Bool,
                                  lines: (@Sendable (String) -> Void)?) throws(CommandFailure) -> Int32 {
        if ownsProcess { InterruptSignal.install() }
        let summary: RenderSummary
        do {
            var settings = try JobSettings().settings(for: self)
            let output = path == "-" ? "/dev/stdout" : path
            let job = try OutputPlanner.plan(inputs: [settings.midiPath ?? "MIDI"], output: output, outputFolder: nil,
                                             format: try container)[0]
            settings.container = job.container
            settings.subtype = settings.subtype ?? job.subtype
            summary = try OfflineRenderer.render(midiAt: rate ?? 48_000, channels: channels ?? 2, output: job.output,
                                                 settings: settings, isCancelled: { InterruptSignal.isSet })
        } catch {
            let signal = InterruptSignal.received.load(ordering: .relaxed)
            if signal != 0 { return 128 + signal }
            throw CommandFailure(error)
        }
        if let lines {
            lines(summary.jsonLine)
        } else {
            for line in summary.warnings { Console.warning(line) }
            if json { Console.out(summary.jsonLine) }
        }
        return 0
    }

    /// A render with no audio file: `--midi` through the processor into `--midi-out`.
    private func renderMIDI(to path: String) throws(CommandFailure) -> Int32 {
        InterruptSignal.install()
        let summary: MIDIRenderSummary
        do {
            let settings = try JobSettings().settings(for: self)
            summary = try MIDIRenderer.render(output: path, settings: settings, isCancelled: { InterruptSignal.isSet })
        } catch {
            let signal = InterruptSignal.received.load(ordering: .relaxed)
            if signal != 0 { return 128 + signal }
            throw CommandFailure(error)
        }
        for line in summary.warnings { Console.warning(line) }
        if json { Console.out(summary.jsonValue.compactText) }
        return 0
    }
}
