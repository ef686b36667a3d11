import DSP
import Glibc

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
        let started = monotonicSeconds()
        let reader = try SoundFileReader(path: input)
        let format: AudioFormat
        do {
            format = try AudioFormat.output(
                for: reader.format, container: settings.container, subtype: settings.subtype,
                channels: reader.channels, sampleRate: reader.sampleRate)
        } catch {
            throw .formatNotWritable(path: output, reason: error.reason)
        }
        let changes = try settings.automation.changes(sampleRate: reader.sampleRate, input: input)
        try checkOutput(output, reader: reader, settings: settings)

        let pending = try PendingOutput(path: output)
        do throws(AudioFileError) {
            let writer = try SoundFileWriter(
                descriptor: pending.descriptor, path: output, format: format,
                sampleRate: reader.sampleRate, channels: reader.channels)
            var stream = RenderStream(
                reader: reader, writer: writer, changes: changes, settings: settings)
            try stream.run(progress: progress, isCancelled: isCancelled, output: output)
            try writer.finish()
            if isCancelled() { throw AudioFileError.cancelled(input: input, output: output) }
            try pending.commit(overwrite: settings.overwrite)
            let telemetry = stream.engine.telemetry.snapshot()
            return RenderSummary(
                input: input, output: output, format: format, sampleRate: reader.sampleRate,
                channels: reader.channels, frames: stream.position, peak: telemetry.peaks.max() ?? 0,
                clipped: stream.clipped, nonFiniteBlocks: telemetry.nonFiniteBlocks,
                automationEvents: stream.nextChange, eventsAfterEnd: changes.count - stream.nextChange,
                seconds: monotonicSeconds() - started)
        } catch {
            pending.discard()
            throw error
        }
    }

    /// Refuses outputs that would destroy an input or an existing file.
    static func checkOutput(_ output: String, reader: SoundFileReader, settings: RenderSettings) throws(AudioFileError) {
        if let existing = FileIdentity(path: output) {
            if existing == reader.identity || settings.protectedFiles.contains(existing) {
                throw .outputIsInput(path: output, input: reader.path)
            }
            if FilePath.isFolder(output) { throw .writeFailed(path: output, reason: "is a folder") }
            if !settings.overwrite { throw .outputExists(path: output) }
        } else if FilePath.exists(output) && !settings.overwrite {
            throw .outputExists(path: output)  // a dangling symbolic link
        }
    }

    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}

/// The streaming loop and its buffers: read a block, hand the block's automation to the
/// engine's queue, process, convert, write. Allocates only when created.
struct RenderStream: ~Copyable {
    let reader: SoundFileReader
    let writer: SoundFileWriter
    let engine: Engine
    let changes: [ParameterChange]
    let channels: Int
    let blockFrames: Int
    /// Frames rendered so far (the engine's frame position).
    private(set) var position: Int64 = 0
    /// Index of the first change not yet queued.
    private(set) var nextChange = 0
    private var quantizer: Quantizer?
    private let clipsFloats: Bool
    private var floatClips: Int64 = 0

    private let interleaved: UnsafeMutablePointer<Float>
    private let integers: UnsafeMutablePointer<Int32>
    private let planar: UnsafeMutablePointer<Float>
    private let inputs: UnsafeMutablePointer<UnsafePointer<Float>>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>

    var clipped: Int64 { (quantizer?.clipped ?? 0) + floatClips }

    init(reader: SoundFileReader, writer: SoundFileWriter, changes: [ParameterChange], settings: RenderSettings) {
        self.reader = reader
        self.writer = writer
        self.changes = changes
        channels = reader.channels
        blockFrames = max(1, settings.blockFrames)
        // The ring must hold every event of one frame at once plus one, so that processing up
        // to an event's frame always frees room for it (see `queue`).
        var perFrame = 0, run = 0
        for i in changes.indices {
            run = i > 0 && changes[i].frame == changes[i - 1].frame ? run + 1 : 1
            perFrame = max(perFrame, run)
        }
        engine = Engine(initialValues: settings.startingValues, queueCapacity: max(1_024, perFrame + 1))
        engine.prepare(sampleRate: Double(reader.sampleRate), maxFrames: blockFrames, channels: channels)
        if let bits = writer.format.pcmBits {
            quantizer = Quantizer(bits: bits, dither: settings.dither && bits <= 16)
        }
        clipsFloats = writer.format.pcmBits == nil && !writer.format.isFloatingPoint
        let samples = blockFrames * channels
        interleaved = .allocate(capacity: samples)
        integers = .allocate(capacity: quantizer == nil ? 1 : samples)
        planar = .allocate(capacity: samples)
        inputs = .allocate(capacity: channels)
        outputs = .allocate(capacity: channels)
    }

    deinit {
        interleaved.deallocate()
        integers.deallocate()
        planar.deallocate()
        inputs.deallocate()
        outputs.deallocate()
    }

    mutating func run(progress: (RenderProgress) -> Void, isCancelled: () -> Bool, output: String) throws(AudioFileError) {
        while true {
            if isCancelled() { throw .cancelled(input: reader.path, output: output) }
            let n = try reader.read(into: interleaved, frames: blockFrames)
            if n == 0 { break }
            deinterleave(n)
            let done = queue(frames: n)
            process(from: done, to: n)
            position += Int64(n)
            try write(n)
            progress(RenderProgress(frames: position, totalFrames: reader.frames, sampleRate: reader.sampleRate))
        }
    }

    /// Sends every change that falls inside the current block to the engine's queue, in order.
    /// A change is never coalesced: when the ring is full, the audio up to that change's frame
    /// is processed first (which drains the ring), and the change is sent again. Returns how
    /// many frames of the block that processed.
    private mutating func queue(frames n: Int) -> Int {
        var done = 0
        while nextChange < changes.count, changes[nextChange].frame < position + Int64(n) {
            if engine.controls.trySend(changes[nextChange]) {
                nextChange += 1
                continue
            }
            // Everything queued is at or before this change's frame; the ring holds more than
            // the changes of any one frame, so after processing up to it there is room.
            let upTo = Int(changes[nextChange].frame - position)
            precondition(upTo > done, "parameter queue smaller than the changes of one frame")
            process(from: done, to: upTo)
            done = upTo
        }
        return done
    }

    /// Processes frames `start..<end` of the current block in place.
    private func process(from start: Int, to end: Int) {
        guard end > start else { return }
        for c in 0..<channels {
            let lane = planar + c * blockFrames + start
            inputs[c] = UnsafePointer(lane)
            outputs[c] = lane
        }
        engine.process(input: inputs, output: outputs, frames: end - start)
    }

    private func deinterleave(_ n: Int) {
        for c in 0..<channels {
            let lane = planar + c * blockFrames
            var j = c
            for i in 0..<n {
                lane[i] = interleaved[j]
                j += channels
            }
        }
    }

    private func interleave(_ n: Int) {
        for c in 0..<channels {
            let lane = planar + c * blockFrames
            var j = c
            for i in 0..<n {
                interleaved[j] = lane[i]
                j += channels
            }
        }
    }

    /// Converts the processed block to the output's encoding and writes it.
    private mutating func write(_ n: Int) throws(AudioFileError) {
        interleave(n)
        if quantizer != nil {
            quantizer!.quantize(interleaved, into: integers, count: n * channels)
            try writer.write(UnsafePointer(integers), frames: n)
        } else {
            if clipsFloats { floatClips += Quantizer.clipToUnit(interleaved, count: n * channels) }
            try writer.write(UnsafePointer(interleaved), frames: n)
        }
    }
}
