import CSndfile
import Glibc
import Parameters
import AudioEngine
import Platform

/// Renders audio files through the Detent engine, streaming in fixed blocks.
///
/// One ``Engine`` per file, driven exactly as the JACK callback drives it: automation events
/// go through its parameter queue stamped with their frame, and `process` runs block by
/// block. So a file renders sample for sample as it would sound live with the same timeline.
/// Memory is a few buffers of ``RenderSettings/blockFrames`` frames, whatever the file's length.
///
/// The output never appears half-written: it is rendered into a temporary file beside it
/// (``PendingOutput``) that is renamed when complete and removed on any error or cancellation.
///
/// ```swift
/// var settings = RenderSettings()
/// settings.startingValues = [.cutoff: 800]
/// let summary = try OfflineRenderer.render(input: "in.wav", output: "out.wav", settings: settings)
/// ```
public enum OfflineRenderer {
    /// Renders `input` into `output`.
    ///
    /// - Parameters:
    ///   - progress: called after every block.
    ///   - isCancelled: polled before every block; when it returns true the render stops,
    ///     its temporary file is removed and ``AudioFileError/cancelled(input:output:)`` thrown.
    /// - Throws: ``AudioFileError`` naming the file and the problem; nothing is left behind.
    public static func render(
        input: String, output: String, settings: RenderSettings,
        progress: (RenderProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(AudioFileError) -> RenderSummary {
        let (summary, pending) = try renderPending(input: input, output: output, settings: settings,
                                                   progress: progress, isCancelled: isCancelled)
        try pending.commit(overwrite: settings.overwrite)
        return summary
    }

    /// Renders `input` into `output`'s temporary file and returns it complete but not yet
    /// named, with the processor already released: a plug-in that crashes in its cleanup
    /// does so before the output can appear. The caller commits it (or seals it for another
    /// process to name); dropping it removes the file.
    public static func renderPending(
        input: String, output: String, settings: RenderSettings,
        progress: (RenderProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(AudioFileError) -> (RenderSummary, PendingOutput) {
        try renderPending(input: input, openReader: { () throws(AudioFileError) in
            let reader = try SoundFileReader(path: input)
            if let channels = settings.channels { reader.fold(to: channels) }
            return reader
        }, output: output, settings: settings, progress: progress, isCancelled: isCancelled)
    }

    /// ``renderPending(midiAt:channels:output:settings:progress:isCancelled:)``, its output named.
    public static func render(
        midiAt sampleRate: Int, channels: Int, output: String, settings: RenderSettings,
        progress: (RenderProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(AudioFileError) -> RenderSummary {
        let (summary, pending) = try renderPending(midiAt: sampleRate, channels: channels, output: output, settings: settings,
                                                   progress: progress, isCancelled: isCancelled)
        try pending.commit(overwrite: settings.overwrite)
        return summary
    }

    /// Renders an instrument (or any processor that takes MIDI) from `settings.midi` alone, with
    /// no audio input, into `output`'s temporary file: as long as the MIDI file plus the tail,
    /// at `sampleRate`, in `channels`; otherwise as ``renderPending(input:output:settings:progress:isCancelled:)``.
    public static func renderPending(
        midiAt sampleRate: Int, channels: Int, output: String, settings: RenderSettings,
        progress: (RenderProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(AudioFileError) -> (RenderSummary, PendingOutput) {
        let name = settings.midiPath ?? "MIDI"
        return try renderPending(input: name, openReader: { () throws(AudioFileError) in
            SoundFileReader(silenceAt: sampleRate, channels: channels, name: name)
        }, output: output, settings: settings, progress: progress, isCancelled: isCancelled)
    }

    private static func renderPending(
        input: String, openReader: () throws(AudioFileError) -> SoundFileReader, output: String, settings: RenderSettings,
        progress: (RenderProgress) -> Void, isCancelled: () -> Bool
    ) throws(AudioFileError) -> (RenderSummary, PendingOutput) {
        let started = ContinuousClock.now
        // Checked before opening: a stream would be consumed by the measuring pass.
        if settings.normalize != nil && PathString.isSpecial(input) { throw .streamCannotNormalize(path: input) }
        UnfinishedFiles.opening.add(1, ordering: .releasing)
        var opening = true
        defer { if opening { UnfinishedFiles.opening.subtract(1, ordering: .releasing) } }
        var reader = try openReader()
        let plan = try OutputPlan(input: input, output: output, reader: reader, settings: settings)
        let settings = plan.settings

        let pending = try PendingOutput(path: output)
        UnfinishedFiles.opening.subtract(1, ordering: .releasing)
        opening = false
        do throws(AudioFileError) {
            var normalization = Normalization()
            if let target = settings.normalize {
                normalization = try measure(toReach: target, input: input, output: output, reader: reader, plan: plan,
                                            progress: progress, isCancelled: isCancelled)
                reader = try openReader()
            }
            let writer = try SoundFileWriter(
                descriptor: pending.descriptor, path: output, format: plan.format,
                sampleRate: reader.sampleRate, channels: reader.channels, channelMap: reader.channelMap,
                autoDowngrade: plan.size.autoDowngrade, frameLimit: plan.size.frameLimit,
                metadata: settings.keepsMetadata ? reader.metadata : nil, encoder: plan.encoder)
            var stream = try RenderStream(
                reader: reader, writer: writer, output: output, changes: plan.changes, settings: settings,
                gain: normalization.gain)
            let firstPass = normalization.firstPass
            try stream.run(progress: { p in progress(settings.normalize == nil ? p : p.halved(before: firstPass)) },
                           isCancelled: { isCancelled() })
            if reader.framesRead == 0 && !reader.isSilence { throw AudioFileError.empty(path: input) }
            try writer.finish()
            if isCancelled() { throw AudioFileError.cancelled(input: input, output: output) }
            let midiOut = try writeMIDIOutput(of: stream, sampleRate: reader.sampleRate, settings: settings)
            return (Self.summary(of: stream, input: input, output: output, reader: reader, writer: writer, plan: plan,
                                 normalization: normalization, midiOut: midiOut, started: started), pending)
        } catch {
            pending.discard()
            throw error
        }
    }

    /// What a render writes, settled and checked before its output is opened: the settings
    /// (with a container chosen for a pipe), the output's format and size plan, the encoder's
    /// commands and the automation's changes. Every refusal a render can give before it starts
    /// is made here, so that none leaves a file behind.
    private struct OutputPlan {
        let settings: RenderSettings
        let format: AudioFormat
        let size: SizeLimit.Plan
        let encoder: [EncoderSettings.Command]
        let changes: [ParameterChange]

        init(input: String, output: String, reader: SoundFileReader, settings: RenderSettings) throws(AudioFileError) {
            var settings = settings
            if settings.container == nil, PathString.isPipe(output),
               !(reader.format.container.map(Container.streaming.contains) ?? true) {
                // A pipe (`-o -`) with no container named: one that streams and holds every
                // encoding WAV does.
                settings.container = .au
            }
            let format: AudioFormat
            let plan: SizeLimit.Plan
            do {
                let chosen = try AudioFormat.output(
                    for: reader.format, container: settings.container, subtype: settings.subtype,
                    channels: reader.channels, sampleRate: reader.sampleRate)
                plan = try SizeLimit.plan(chosen, frames: settings.mostFrames(input: reader.frames, sampleRate: reader.sampleRate),
                                          channels: reader.channels)
                format = plan.format
            } catch {
                throw .formatNotWritable(path: output, reason: error.reason)
            }
            if PathString.isPipe(output), let container = format.container, !Container.streaming.contains(container) {
                throw .formatNotWritable(path: output, reason: "\(container.rawValue) cannot be written to a pipe "
                    + "(its header is completed at the end); use --format " + Container.streaming.map(\.rawValue).joined(separator: ", "))
            }
            let encoder: [EncoderSettings.Command]
            do {
                encoder = try settings.encoder.commands(for: format, sampleRate: reader.sampleRate, channels: reader.channels)
            } catch {
                throw .encoderSetting(path: output, reason: error.reason)
            }
            let changes = try settings.automation.changes(sampleRate: reader.sampleRate, input: input)
            try checkOutput(output, reader: reader, settings: settings)
            if let midiOut = settings.midiOut { try MIDIFileWriter.checkOutput(midiOut, overwrite: settings.overwrite) }
            if settings.measures != .none || settings.normalize != nil, let problem = LoudnessMeter.libraryProblem {
                throw .loudnessUnavailable(path: input, reason: problem)
            }
            self.settings = settings
            self.format = format
            self.size = plan
            self.encoder = encoder
            self.changes = changes
        }
    }

    /// What `--normalize`'s first pass found: the gain in dB that reaches the target (nil
    /// without `--normalize`) and as a factor, the frames the pass ran (for the progress of
    /// both passes), and whether the output was silent.
    private struct Normalization {
        var normalizeGain: Double?
        var gain: Float = 1
        var firstPass: Int64 = 0
        var silent = false
    }

    /// `--normalize`'s first pass: the same engine, automation and tail, measured and not
    /// written, and the gain that brings it to `target`. The caller opens the input again for
    /// the second pass.
    private static func measure(
        toReach target: Double, input: String, output: String, reader: SoundFileReader, plan: OutputPlan,
        progress: (RenderProgress) -> Void, isCancelled: () -> Bool
    ) throws(AudioFileError) -> Normalization {
        var measuring = try RenderStream(reader: reader, writer: nil, output: output, changes: plan.changes, settings: plan.settings)
        try measuring.run(progress: { p in progress(p.halved(before: 0)) }, isCancelled: { isCancelled() })
        if reader.framesRead == 0 && !reader.isSilence { throw AudioFileError.empty(path: input) }
        // Silence (nothing above the −70 LUFS gate) has no loudness to move: no gain.
        let solved = measuring.meter.gain(toReach: target)
        let db = solved ?? 0
        return Normalization(normalizeGain: db, gain: Float(pow(10, db / 20)), firstPass: measuring.position, silent: solved == nil)
    }

    /// Writes the processor's MIDI output (`--midi-out`) on the output's timeline (its latency
    /// dropped as the audio's is), whole, before either file takes its name: it takes its own
    /// here; the audio file's is given by the caller once the processor is released.
    ///
    /// - Returns: what was written, for the summary; nil without `--midi-out`.
    private static func writeMIDIOutput(of stream: borrowing RenderStream, sampleRate: Int,
                                        settings: RenderSettings) throws(AudioFileError) -> MIDIOutputSummary? {
        var midiPending: PendingOutput?
        var midiOut: MIDIOutputSummary?
        if let path = settings.midiOut {
            let messages = stream.midiOutput.messages.map { MIDIOutput.Message(frame: $0.frame - Int64(stream.latency), bytes: $0.bytes) }
            let file = MIDIFileWriter.bytes(messages, sampleRate: sampleRate,
                                            beatsPerMinute: settings.beatsPerMinute ?? MIDIFileWriter.defaultBeatsPerMinute,
                                            endFrame: stream.written)
            midiPending = try MIDIFileWriter.pending(file.bytes, at: path, overwrite: settings.overwrite)
            midiOut = .init(path: path, messages: messages.count - file.skipped, skipped: file.skipped,
                            dropped: stream.midiOutput.dropped)
        }
        try midiPending?.commit(overwrite: settings.overwrite)
        return midiOut
    }

    /// The summary of a finished render: what was written and how, what the engine and the
    /// processor reported, the loudness and the normalization.
    private static func summary(
        of stream: borrowing RenderStream, input: String, output: String, reader: SoundFileReader, writer: SoundFileWriter,
        plan: OutputPlan, normalization: Normalization, midiOut: MIDIOutputSummary?, started: ContinuousClock.Instant
    ) -> RenderSummary {
        let settings = plan.settings, format = plan.format
        let telemetry = stream.engine.telemetry.snapshot()
        // RF64 chosen for a WAV output that stayed small was written as WAV.
        let written = plan.size.autoDowngrade && stream.written * Int64(SizeLimit.bytesPerSample(format) * reader.channels) <= SizeLimit.bytes
            ? AudioFormat(code: Int32(SF_FORMAT_WAV) | format.subtypeCode) : format
        var summary = RenderSummary(
            input: input, output: output, format: written, sampleRate: reader.sampleRate,
            // The gain is constant and rounding monotonic: the written peak is the engine's times it.
            channels: reader.channels, frames: stream.written, peak: (telemetry.peaks.max() ?? 0) * normalization.gain,
            clipped: stream.clipped, nonFiniteBlocks: telemetry.nonFiniteBlocks,
            automationEvents: stream.feed.nextChange, eventsAfterEnd: plan.changes.count - stream.feed.nextChange,
            seconds: (ContinuousClock.now - started).seconds)
        summary.sanitizedOutputSamples = telemetry.sanitizedOutputSamples
        summary.absurdSlots = zip(settings.processor.chainParts.map(\.name), telemetry.absurdFrames).filter { $0.1 > 0 }.map { AbsurdSlot(slot: $0.0, frames: $0.1) }
        if settings.midi != nil { summary.midiEvents = stream.feed.notesPlayed }
        summary.midiDropped = stream.feed.droppedNotes
        summary.latency = stream.latency
        if let midiOut { summary.midiOutput = midiOut }
        summary.metadata = writer.keptMetadata
        summary.metadataLost = writer.lostMetadata
        summary.dither = stream.dither
        summary.encoder = settings.encoder
        if settings.dither == .shaped, let note = shapingNote(format: format, got: stream.dither, sampleRate: reader.sampleRate) {
            summary.notes.append("\(output): \(note)")
        }
        summary.loudness = stream.meter.integrated
        summary.truePeak = stream.meter.truePeak
        summary.normalizeTarget = settings.normalize
        summary.normalizeGain = normalization.normalizeGain
        summary.normalizedSilence = normalization.silent
        if !settings.processor.isBuiltIn { summary.plugin = settings.processor.identifier }
        if let reports = stream.engine.kernelReports {
            summary.processorMessages = reports.takeMessages()
            summary.processorOutputs = reports.outputValues
        }
        return summary
    }

    /// Why `--dither shaped` did not apply to an output that got `got` (nil: not integer PCM),
    /// or nil when it did. A warning rather than a refusal: in a batch some outputs may be
    /// 16-bit and others not, and `--no-dither` has always been accepted for a float output.
    static func shapingNote(format: AudioFormat, got: Dither?, sampleRate: Int) -> String? {
        switch got {
        case .shaped?: nil
        case .tpdf?: "shaped dither is for 44.1 and 48 kHz; this \(sampleRate) Hz output got plain TPDF dither"
        case Dither.none?, nil: "--dither shaped does not apply to \(format) (only integer PCM of 16 bits or fewer is dithered)"
        }
    }

    /// Refuses outputs that would destroy an input or an existing file.
    static func checkOutput(_ output: String, reader: SoundFileReader, settings: RenderSettings) throws(AudioFileError) {
        if let existing = FileIdentity(path: output) {
            if existing == reader.identity { throw .outputIsInput(path: output, input: reader.path) }
            if let role = settings.protectedFiles[existing] { throw .outputIsRead(path: output, role: role) }
            if PathString.isFolder(output) { throw .writeFailed(path: output, reason: "is a folder") }
            // A device or FIFO is written to, not replaced: nothing is lost by writing to it.
            if !settings.overwrite && !PathString.isSpecial(output) { throw .outputExists(path: output) }
        } else if PathString.exists(output) && !settings.overwrite {
            throw .outputExists(path: output)  // a dangling symbolic link
        }
    }
}

extension RenderProgress {
    /// Progress through one of `--normalize`'s two passes as progress through both: the
    /// second pass starts `before` frames (the first pass's) in, of twice the length.
    func halved(before: Int64) -> RenderProgress {
        RenderProgress(frames: (before + frames) / 2, totalFrames: totalFrames, sampleRate: sampleRate)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

