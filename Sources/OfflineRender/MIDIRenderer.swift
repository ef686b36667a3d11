import AudioEngine
import Parameters

/// Renders a processor with no audio file on either side: a MIDI file (`--midi`) plays into
/// it and its MIDI output becomes a MIDI file (`--midi-out`) — how a MIDI-only plug-in (a
/// transposer, a channel map, an arpeggiator) is hosted offline.
///
/// The engine runs as for any render — the same event feed, the same smoothing and
/// automation, the plug-in's `run` at most ``RenderSettings/kernelFrames`` long — on silence
/// of one channel at ``sampleRate``, for the MIDI file's length plus the tail (`--tail
/// SECONDS`, which lets a delay's last echoes out; the file's last message always plays). Any audio the processor makes is not kept.
///
/// ```swift
/// var settings = RenderSettings()
/// settings.processor = transpose
/// settings.midi = try MIDIFile.read(path: "in.mid")
/// let summary = try MIDIRenderer.render(output: "out.mid", settings: settings)
/// ```
public enum MIDIRenderer {
    /// The rate the processor runs at (what its `run` is told; ticks do not depend on it).
    public static let sampleRate = 48_000
    /// Frames per engine call: the MIDI the processor writes is taken after each.
    static let blockFrames = 4_096

    /// Renders into the MIDI file `output`.
    ///
    /// - Throws: ``AudioFileError`` naming the file and the problem; nothing is left behind.
    public static func render(output: String, settings: RenderSettings,
                              isCancelled: () -> Bool = { false }) throws(AudioFileError) -> MIDIRenderSummary {
        let started = ContinuousClock.now
        try MIDIFileWriter.checkOutput(output, overwrite: settings.overwrite)
        let input = settings.midiPath ?? output
        let changes = try settings.automation.changes(sampleRate: sampleRate, input: input)
        let feed = EventFeed(changes: changes, notes: settings.midi?.frames(sampleRate: sampleRate) ?? [])
        let engine = Engine(processor: settings.processor, initialValues: settings.startingValues,
                            queueCapacity: max(1_024, feed.mostChangesAtOneFrame + 1),
                            controlInterval: settings.controlInterval, kernelFrames: settings.kernelFrames)
        engine.beatsPerMinute = settings.beatsPerMinute
        do {
            try engine.prepare(sampleRate: Double(sampleRate), maxFrames: blockFrames, channels: 1)
        } catch {
            throw .processorFailed(input: input, reason: String(describing: error))
        }
        // Long enough for every message, the last one (often a note-off at the file's very end) included.
        let last = feed.notes.last.map { $0.frame + 1 } ?? 0
        let total = max(settings.midiFrames(sampleRate: sampleRate), last) + Int64(settings.tailFrames(sampleRate: sampleRate))
        var block = [Float](repeating: 0, count: blockFrames)
        var collected = MIDIOutput()
        var position: Int64 = 0
        while position < total {
            if isCancelled() { throw .cancelled(input: input, output: output) }
            let n = Int(min(Int64(blockFrames), total - position))
            block.withUnsafeMutableBufferPointer { buffer in
                buffer.update(repeating: 0)
                feed.render(engine, block: buffer.baseAddress!, channels: 1, position: position, frames: n)
            }
            position += Int64(n)
            if let reports = engine.kernelReports {
                let part = reports.takeMIDIOutput()
                collected.messages += part.messages
                collected.dropped += part.dropped
            }
        }
        let file = MIDIFileWriter.bytes(collected.messages, sampleRate: sampleRate,
                                        beatsPerMinute: settings.beatsPerMinute ?? MIDIFileWriter.defaultBeatsPerMinute,
                                        endFrame: total)
        try MIDIFileWriter.write(file.bytes, to: output, overwrite: settings.overwrite)
        var summary = MIDIRenderSummary(
            input: settings.midiPath, plugin: settings.processor.identifier, sampleRate: sampleRate, frames: total,
            midiEvents: feed.notesPlayed, automationEvents: feed.nextChange,
            output: MIDIOutputSummary(path: output, messages: collected.messages.count - file.skipped,
                                      skipped: file.skipped, dropped: collected.dropped),
            processorMessages: engine.kernelReports?.takeMessages() ?? [],
            seconds: (ContinuousClock.now - started).seconds)
        summary.midiDropped = feed.droppedNotes
        return summary
    }
}
