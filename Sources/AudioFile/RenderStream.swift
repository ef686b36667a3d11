import DSP
import Glibc
import Synchronization

/// The streaming part of a render: blocks flow from a reader thread through the engine (on
/// the caller's thread) to a writer thread, through a ring of a few block buffers.
///
/// ```
/// reader thread:  read ─▶ [ring] ─▶ caller: automation · engine ─▶ [ring] ─▶ writer thread: quantise · write
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
    private let changes: [ParameterChange]
    private let ioThreads: IOThreads
    private let sampleRate: Int
    private let totalFrames: Int64?
    private let output: String
    private let input: String
    /// Frames rendered so far (the engine's frame position).
    private(set) var position: Int64 = 0
    /// Index of the first change not yet queued.
    private(set) var nextChange = 0

    /// Samples the output encoding could not hold (valid after `run`).
    var clipped: Int64 { writeStage.clipped }

    /// Blocks in flight: one being read, one processed, one written, one spare to absorb jitter.
    static let slots = 4

    init(reader: SoundFileReader, writer: SoundFileWriter, changes: [ParameterChange], settings: RenderSettings) {
        let blockFrames = max(1, settings.blockFrames)
        let channels = reader.channels
        ring = BlockRing(slots: Self.slots, blockFrames: blockFrames, channels: channels)
        readStage = ReadStage(reader: reader, ring: ring)
        writeStage = WriteStage(writer: writer, ring: ring, dither: settings.dither)
        self.changes = changes
        ioThreads = settings.ioThreads
        sampleRate = reader.sampleRate
        totalFrames = reader.frames
        input = reader.path
        output = writer.path
        // The ring must hold every event of one frame at once plus one, so that processing up
        // to an event's frame always frees room for it (see `queue`).
        var perFrame = 0, run = 0
        for i in changes.indices {
            run = i > 0 && changes[i].frame == changes[i - 1].frame ? run + 1 : 1
            perFrame = max(perFrame, run)
        }
        engine = Engine(initialValues: settings.startingValues, queueCapacity: max(1_024, perFrame + 1))
        engine.prepare(sampleRate: Double(reader.sampleRate), maxFrames: blockFrames, channels: channels)
    }

    /// Streams the whole file. On any failure (or cancellation) every stage stops at its next
    /// block and the first error is thrown.
    mutating func run(progress: (RenderProgress) -> Void, isCancelled: () -> Bool) throws(AudioFileError) {
        let readStage = readStage, writeStage = writeStage, ring = ring
        var workers: [WorkerThread] = []
        let bodies: [@Sendable () -> Void] = switch ioThreads {
        case .separate: [{ readStage.run() }, { writeStage.run() }]
        case .shared: [{ IOStage.run(reading: readStage, writing: writeStage, ring: ring) }]
        }
        for body in bodies {
            guard let worker = WorkerThread(body) else {
                ring.fail(.writeFailed(path: output, reason: "cannot start a thread: " + systemError(errno)))
                workers.forEach { $0.join() }
                throw ring.failure!
            }
            workers.append(worker)
        }
        var slot = 0
        while true {
            ring.filled.wait()
            if ring.isStopped { break }
            let n = ring.frames[slot]
            if n > 0 && isCancelled() {
                ring.fail(.cancelled(input: input, output: output))
                break
            }
            if n > 0 {
                let done = queue(slot: slot, frames: n)
                process(slot: slot, from: done, to: n)
                position += Int64(n)
            }
            ring.processed.signal()
            if n == 0 { break }
            progress(RenderProgress(frames: position, totalFrames: totalFrames, sampleRate: sampleRate))
            slot = (slot + 1) % ring.slots
        }
        workers.forEach { $0.join() }
        // A stop the user asked for outranks whatever failed after it (a pipe closed on exit).
        if isCancelled() { throw .cancelled(input: input, output: output) }
        if let failure = ring.failure { throw failure }
    }

    /// Sends every change that falls inside the current block to the engine's queue, in order.
    /// A change is never coalesced: when the ring is full, the audio up to that change's frame
    /// is processed first (which drains the ring), and the change is sent again. Returns how
    /// many frames of the block that processed.
    private mutating func queue(slot: Int, frames n: Int) -> Int {
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
            process(slot: slot, from: done, to: upTo)
            done = upTo
        }
        return done
    }

    /// Processes frames `start..<end` of a slot in place.
    private func process(slot: Int, from start: Int, to end: Int) {
        guard end > start else { return }
        let block = ring.block(slot) + start * ring.channels
        engine.process(interleaved: block, output: block, frames: end - start)
    }
}

/// The block buffers the stages pass around, with the semaphores that order them: a slot is
/// free (the reader may fill it), filled (the engine may process it), then processed (the
/// writer may write it, and then frees it). A slot holding 0 frames marks the end.
///
/// `@unchecked Sendable`: each slot is touched by one stage at a time, and the semaphore
/// between two stages orders their accesses.
final class BlockRing: @unchecked Sendable {
    let slots: Int
    let blockFrames: Int
    let channels: Int
    /// Interleaved samples, `slots × blockFrames × channels`.
    let samples: UnsafeMutablePointer<Float>
    /// Frames in each slot.
    let frames: UnsafeMutablePointer<Int>
    let free: Semaphore
    let filled = Semaphore(0)
    let processed = Semaphore(0)
    private let stopped = Atomic(false)
    private let firstFailure = Mutex<AudioFileError?>(nil)

    init(slots: Int, blockFrames: Int, channels: Int) {
        self.slots = slots
        self.blockFrames = blockFrames
        self.channels = channels
        samples = .allocate(capacity: slots * blockFrames * channels)
        frames = .allocate(capacity: slots)
        frames.initialize(repeating: 0, count: slots)
        free = Semaphore(slots)
    }

    deinit {
        samples.deallocate()
        frames.deallocate()
    }

    /// The first sample of a slot's block.
    func block(_ slot: Int) -> UnsafeMutablePointer<Float> {
        samples + slot * blockFrames * channels
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }
    var failure: AudioFileError? { firstFailure.withLock { $0 } }

    /// Records the first error and stops every stage (each is woken from its wait).
    func fail(_ error: AudioFileError) {
        firstFailure.withLock { if $0 == nil { $0 = error } }
        stopped.store(true, ordering: .releasing)
        free.signal()
        filled.signal()
        processed.signal()
    }
}

/// The reader thread: decodes blocks straight into free slots.
final class ReadStage: @unchecked Sendable {
    private let reader: SoundFileReader
    private let ring: BlockRing

    init(reader: SoundFileReader, ring: BlockRing) {
        self.reader = reader
        self.ring = ring
    }

    /// Reads into slots as they are freed, until the end of the file or a stop.
    func run() {
        var slot = 0
        while true {
            ring.free.wait()
            if ring.isStopped { return }
            guard let n = read(into: slot), n > 0 else { return }
            slot = (slot + 1) % ring.slots
        }
    }

    /// Fills a slot and hands it on; the block after the last holds 0 frames. Returns nil
    /// after a failure (recorded in the ring).
    func read(into slot: Int) -> Int? {
        let n: Int
        do { n = try reader.read(into: ring.block(slot), frames: ring.blockFrames) } catch {
            ring.fail(error)
            return nil
        }
        ring.frames[slot] = n
        ring.filled.signal()
        return n
    }
}

/// The writer thread: converts processed slots to the output's encoding (``Quantizer`` for
/// integer PCM, clipping for other non-float encodings) and writes them.
final class WriteStage: @unchecked Sendable {
    private let writer: SoundFileWriter
    private let ring: BlockRing
    private let integers: UnsafeMutablePointer<Int32>
    private var quantizer: Quantizer?
    private let clipsFloats: Bool
    private var floatClips: Int64 = 0

    /// Samples clipped so far (read after the thread is joined).
    var clipped: Int64 { (quantizer?.clipped ?? 0) + floatClips }

    init(writer: SoundFileWriter, ring: BlockRing, dither: Bool) {
        self.writer = writer
        self.ring = ring
        let bits = writer.format.pcmBits
        quantizer = bits.map { Quantizer(bits: $0, dither: dither && $0 <= 16) }
        clipsFloats = bits == nil && !writer.format.isFloatingPoint
        integers = .allocate(capacity: bits == nil ? 1 : ring.blockFrames * ring.channels)
    }

    deinit { integers.deallocate() }

    /// Writes slots as they are processed, until the end of the file or a stop.
    func run() {
        var slot = 0
        while true {
            ring.processed.wait()
            if ring.isStopped { return }
            guard write(slot) else { return }
            ring.free.signal()
            slot = (slot + 1) % ring.slots
        }
    }

    /// Writes a processed slot. Returns false at the end of the file or after a failure
    /// (recorded in the ring).
    func write(_ slot: Int) -> Bool {
        let n = ring.frames[slot]
        if n == 0 { return false }
        do { try write(slot: slot, frames: n) } catch {
            ring.fail(error)
            return false
        }
        return true
    }

    private func write(slot: Int, frames n: Int) throws(AudioFileError) {
        let block = ring.block(slot), count = n * ring.channels
        if quantizer != nil {
            quantizer!.quantize(block, count: count, into: integers)
            try writer.write(UnsafePointer(integers), frames: n)
            return
        }
        if clipsFloats { floatClips += Quantizer.clipToUnit(block, count: count) }
        try writer.write(UnsafePointer(block), frames: n)
    }
}

/// Reading and writing taking turns on one thread. On two cores, three busy threads — reader,
/// engine, writer — would take turns on them instead, and the engine, the longest stage,
/// would wait for its share; with reading and writing on one thread each stage has a core.
///
/// The thread writes whatever the engine has finished first (so slots come free as early as
/// possible), otherwise reads ahead while a slot is free, and only sleeps when it can do
/// neither.
enum IOStage {
    static func run(reading: ReadStage, writing: WriteStage, ring: BlockRing) {
        var readSlot = 0, writeSlot = 0
        var inFlight = 0  // slots read and not yet written, the end marker included
        var atEnd = false
        while true {
            let canRead = !atEnd && inFlight < ring.slots
            if canRead && !ring.processed.tryWait() {
                guard let n = reading.read(into: readSlot) else { return }
                readSlot = (readSlot + 1) % ring.slots
                inFlight += 1
                atEnd = n == 0
                continue
            }
            if !canRead { ring.processed.wait() }
            if ring.isStopped { return }
            guard writing.write(writeSlot) else { return }
            writeSlot = (writeSlot + 1) % ring.slots
            inFlight -= 1
        }
    }
}
