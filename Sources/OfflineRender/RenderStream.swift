import Parameters
import AudioEngine
import Platform

/// The streaming part of a render: blocks flow from a reader (``ReadStage``) through the
/// engine (on the caller's thread) to a writer (``WriteStage``), through a ring of a few block
/// buffers (``BlockRing``). Reader and writer have a thread each, or share one (``IOStage``).
///
/// ```
/// read ─▶ [ring] ─▶ caller: automation · engine · gain · meter ─▶ [ring] ─▶ quantise · write
/// ```
///
/// Decoding, processing and encoding overlap, so a render takes about as long as its slowest
/// stage instead of the sum of all three. Each stage still sees every block in file order and
/// the engine is driven from one thread exactly as in a single loop, so the output is the same
/// bit for bit. Blocks stay interleaved, as libsndfile reads and writes them: the reader
/// decodes straight into a slot, the engine processes it in place and the writer encodes it
/// from there (quantising first for integer PCM), so no stage copies samples around.
/// Memory is the ring: `slots × blockFrames × channels` floats.
struct RenderStream: ~Copyable {
    let engine: Engine
    private let ring: BlockRing
    private let readStage: ReadStage
    private let writeStage: WriteStage
    private let ioThreads: IOThreads
    private let sampleRate: Int
    private let totalFrames: Int64?
    private let output: String
    private let input: String
    /// Frames rendered so far (the engine's frame position).
    private(set) var position: Int64 = 0
    /// The automation's changes and the MIDI file's messages (`--midi`), each at its frame.
    let feed: EventFeed
    /// What the processor wrote to its MIDI output (`--midi-out`), at its frames on the
    /// engine's timeline; collected only when asked for.
    private(set) var midiOutput = MIDIOutput()
    private let collectsMIDI: Bool
    /// The side-chain keys (`--sidechain`), read block by block with the input; nil: none.
    private let keys: SidechainKeys?
    /// The processor's latency in frames: that many frames at the start of the output are
    /// dropped and as many frames of silence are rendered after the input, so the output
    /// lines up with the input and is as long (plus any tail).
    let latency: Int
    private let tail: RenderSettings.Tail
    /// Frames written to the output (valid after `run`).
    private(set) var written: Int64 = 0
    /// `--tail auto`: the peak of the current 100 ms step of the tail.
    private var stepPeak: Float = 0

    /// Samples the output encoding could not hold (valid after `run`).
    var clipped: Int64 { writeStage.clipped }
    /// The output's loudness and true peak (valid after `run`).
    let meter: LoudnessMeter
    /// A constant gain after the processor (1: none), applied after `--tail auto` has decided
    /// on the processor's own output, so both passes of `--normalize` render the same frames.
    private let gain: Float

    /// The dither the output got (nil: not integer PCM).
    var dither: Dither? { writeStage.dither }

    /// Blocks in flight: one being read, one processed, one written, one spare to absorb jitter.
    static let slots = 4

    /// A stream from `reader` to `writer` at `output`; with no writer it only measures the
    /// output's loudness (`--normalize`'s first pass). `gain` multiplies the processor's output.
    init(reader: SoundFileReader, writer: SoundFileWriter?, output: String, changes: [ParameterChange],
         settings: RenderSettings, gain: Float = 1) throws(AudioFileError) {
        let measuring = writer == nil
        let blockFrames = max(1, settings.blockFrames ?? RenderSettings.blockFrames(forLength: reader.frames))
        let channels = reader.channels
        // A stream's blocks may stall, whatever length its header declares: it keeps a thread
        // (see `IOThreads.inline`).
        ioThreads = settings.ioThreads == .inline && !reader.isSeekable ? .shared : settings.ioThreads
        ring = BlockRing(slots: ioThreads == .inline ? 1 : Self.slots, blockFrames: blockFrames, channels: channels)
        meter = LoudnessMeter(channels: channels, sampleRate: reader.sampleRate, channelMap: reader.channelMap,
                              // The measuring pass needs the loudness only: true peak is the dearest part.
                              measures: measuring ? .integrated : settings.measures, recordsBlocks: measuring)
        self.gain = gain
        writeStage = WriteStage(writer: writer, ring: ring, dither: settings.dither, sampleRate: reader.sampleRate)
        feed = EventFeed(changes: changes, notes: settings.midi?.frames(sampleRate: reader.sampleRate) ?? [])
        collectsMIDI = settings.midiOut != nil && !measuring
        sampleRate = reader.sampleRate
        totalFrames = reader.frames
        input = reader.path
        self.output = output
        engine = Engine(processor: settings.processor, initialValues: settings.startingValues,
                        queueCapacity: max(1_024, feed.mostChangesAtOneFrame + 1), controlInterval: settings.controlInterval,
                        kernelFrames: settings.kernelFrames)
        engine.beatsPerMinute = settings.beatsPerMinute
        do {
            try engine.prepare(sampleRate: Double(reader.sampleRate), maxFrames: blockFrames, channels: channels)
        } catch {
            throw .processorFailed(input: reader.path, reason: String(describing: error))
        }
        keys = try SidechainKeys.open(settings.sidechains, input: reader.path, sampleRate: reader.sampleRate,
                                      channels: channels, blockFrames: blockFrames)
        latency = engine.latencyAtCurrentValues()
        tail = settings.tail
        // A MIDI file longer than the input plays to its end: the input is padded with silence.
        let midiBeyond = max(0, settings.midiFrames(sampleRate: reader.sampleRate) - (reader.frames ?? 0))
        readStage = ReadStage(reader: reader, ring: ring,
                              padding: latency + settings.tailFrames(sampleRate: reader.sampleRate) + Int(midiBeyond))
    }

    /// Streams the whole file. On any failure (or cancellation) every stage stops at its next
    /// block and the first error is thrown.
    mutating func run(progress: (RenderProgress) -> Void, isCancelled: () -> Bool) throws(AudioFileError) {
        if ioThreads == .inline { return try runInline(progress: progress, isCancelled: isCancelled) }
        let stopped = Semaphore(0)
        let workers = try startIOThreads(signalling: stopped)
        var slot = 0
        while true {
            // Waiting in steps, so that a stop asked for while a stream stalls is acted on.
            while !ring.filled.wait(timeout: .milliseconds(50)) {
                if isCancelled() { ring.fail(.cancelled(input: input, output: output)) }
            }
            if ring.isStopped { break }
            let n = ring.frames[slot]
            if n > 0 && isCancelled() {
                ring.fail(.cancelled(input: input, output: output))
                break
            }
            var ended = false
            if n > 0 {
                guard let endsOutput = render(slot: slot, frames: n) else { break }
                ended = endsOutput
            }
            ring.processed.signal()
            if n == 0 { break }
            if ended {
                endOutput(after: slot)
                break
            }
            progress(RenderProgress(frames: position, totalFrames: totalFrames, sampleRate: sampleRate))
            slot = (slot + 1) % ring.slots
        }
        try join(workers, stopped: stopped, isCancelled: isCancelled)
    }

    /// ``run(progress:isCancelled:)`` with no thread of its own (``IOThreads/inline``): each
    /// block read, rendered and written in turn, in the ring's one slot.
    private mutating func runInline(progress: (RenderProgress) -> Void, isCancelled: () -> Bool) throws(AudioFileError) {
        while !isCancelled() {
            guard let n = readStage.read(into: 0) else { break }
            _ = ring.filled.tryWait()  // what the read signalled, for threads that are not here
            guard n > 0, let ended = render(slot: 0, frames: n), writeStage.write(0), !ended else { break }
            progress(RenderProgress(frames: position, totalFrames: totalFrames, sampleRate: sampleRate))
        }
        if isCancelled() { throw .cancelled(input: input, output: output) }
        if let failure = ring.failure { throw failure }
    }

    /// Starts the reader's and the writer's threads (one for both with shared I/O), each
    /// signalling `stopped` when its stage ends. When one cannot start, the ring is failed,
    /// the threads already started are joined and the failure is thrown.
    private func startIOThreads(signalling stopped: Semaphore) throws(AudioFileError) -> [NamedThread] {
        let readStage = readStage, writeStage = writeStage, ring = ring
        var workers: [NamedThread] = []
        let bodies: [(name: String, body: @Sendable () -> Void)] = switch ioThreads {
        case .separate: [("render-read", { readStage.run() }), ("render-write", { writeStage.run() })]
        case .shared: [("render-io", { IOStage.run(reading: readStage, writing: writeStage, ring: ring) })]
        case .inline: []
        }
        for (name, body) in bodies {
            do {
                workers.append(try NamedThread(name: name) { body(); stopped.signal() })
            } catch {
                ring.fail(.writeFailed(path: output, reason: "cannot start a thread: " + error.description))
                workers.forEach { $0.join() }
                throw ring.failure!
            }
        }
        return workers
    }

    /// Runs one filled slot of `n` frames through the engine: the side-chain keys' frames
    /// read, the block rendered with its events, the processor's MIDI output collected, the
    /// latency's frames skipped, `--tail auto` checked, and the frames to be written finished.
    ///
    /// - Returns: true when this slot ends the output (`--tail auto`), false when more
    ///   follow, nil when the keys could not be read (the ring holds the failure).
    private mutating func render(slot: Int, frames n: Int) -> Bool? {
        if let keys {
            do { try keys.read(frames: n) } catch {
                ring.fail(error)
                return nil
            }
        }
        // Blocks are whole until the stream's last (the reader fills them, padding included).
        feed.render(engine, block: ring.block(slot), channels: ring.channels, position: position, frames: n, keys: keys,
                    endsStream: n < ring.blockFrames)
        if collectsMIDI, let reports = engine.kernelReports {
            let part = reports.takeMIDIOutput()
            midiOutput.messages += part.messages
            midiOutput.dropped += part.dropped
        }
        let start = position
        position += Int64(n)
        // The processor's latency: its first frames are not written.
        ring.skipped[slot] = Int(max(0, min(Int64(latency) - start, Int64(n))))
        var ended = false
        if tail == .auto { ended = endOfTail(slot: slot, start: start, frames: n) }
        let kept = ring.frames[slot] - ring.skipped[slot]
        if kept > 0 { finish(slot: slot, from: ring.skipped[slot], frames: kept) }
        written += Int64(kept)
        return ended
    }

    /// Ends the output after `slot`, which `--tail auto` found to be its last: the next slot
    /// (more silence, or the reader's end) becomes the end for the writer; then the reader is
    /// told to stop padding.
    private func endOutput(after slot: Int) {
        let slot = (slot + 1) % ring.slots
        ring.filled.wait()
        if !ring.isStopped {
            ring.frames[slot] = 0
            ring.processed.signal()
        }
        ring.requestEnd()
    }

    /// Waits for the I/O threads once the engine's loop is over, and throws what stopped the
    /// stream: a stop the user asked for, else the first failure of any stage.
    private func join(_ workers: [NamedThread], stopped: Semaphore, isCancelled: () -> Bool) throws(AudioFileError) {
        if isCancelled() {
            // A thread blocked on a stalled stream never returns: it is left to end with the
            // process (it holds its own references to the stages and the ring).
            let ended = workers.indices.allSatisfy { _ in stopped.wait(timeout: .milliseconds(200)) }
            if ended { workers.forEach { $0.join() } }
            // A stop the user asked for outranks whatever failed after it (a pipe closed on exit).
            throw .cancelled(input: input, output: output)
        }
        workers.forEach { $0.join() }
        if let failure = ring.failure { throw failure }
    }

    /// `--tail auto`: past the input (and the latency), the tail is cut in steps of 100 ms;
    /// the output ends after the first step whose peak is below −90 dBFS. Steps count from
    /// the end of the input, so the length does not depend on block sizes. Returns true when
    /// this slot ends the output (its frame count is cut to the end of that step).
    private mutating func endOfTail(slot: Int, start: Int64, frames n: Int) -> Bool {
        let input = ring.inputFrames.load(ordering: .relaxed)
        guard input >= 0 else { return false }
        let tailStart = Int64(input + latency)
        let step = Int64(max(1, sampleRate / 10))
        let threshold: Float = 3.1622776e-5  // −90 dBFS
        let block = ring.block(slot)
        var f = max(start, tailStart)
        while f < start + Int64(n) {
            let stepEnd = tailStart + ((f - tailStart) / step + 1) * step
            let until = min(stepEnd, start + Int64(n))
            for i in Int(f - start)..<Int(until - start) {
                for c in 0..<ring.channels { stepPeak = max(stepPeak, abs(block[i * ring.channels + c])) }
            }
            if until == stepEnd {
                if stepPeak < threshold {
                    ring.frames[slot] = Int(stepEnd - start)
                    return true
                }
                stepPeak = 0
            }
            f = until
        }
        return false
    }

    /// Applies the gain to the frames of a slot that will be written, and measures them. The
    /// meter costs more than the engine (docs/rendering.md, "Speed and memory"); it runs here, on the
    /// engine's thread, because with fewer than three cores reading and writing share the
    /// other one, and the engine alone leaves this one mostly idle.
    private func finish(slot: Int, from start: Int, frames n: Int) {
        let block = ring.block(slot) + start * ring.channels
        if gain != 1 {
            for i in 0..<n * ring.channels { block[i] *= gain }
        }
        meter.add(interleaved: block, frames: n)
    }
}
