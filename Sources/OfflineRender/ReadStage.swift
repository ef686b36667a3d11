/// The reader thread: decodes blocks straight into free slots, then adds `padding` frames of
/// silence (a processor's latency and a tail to ring out), or silence until the engine stage
/// asks it to stop (``BlockRing/endRequested``), at most `padding` frames.
final class ReadStage: @unchecked Sendable {
    private let reader: SoundFileReader
    private let ring: BlockRing
    private let padding: Int
    private var padded = 0
    private var read = 0

    init(reader: SoundFileReader, ring: BlockRing, padding: Int = 0) {
        self.reader = reader
        self.ring = ring
        self.padding = padding
    }

    /// Reads into slots as they are freed, until the end of the file or a stop.
    func run() {
        var slot = 0
        while true {
            ring.free.wait()
            if ring.isStopped || ring.endRequested { return }
            guard let n = read(into: slot), n > 0 else { return }
            slot = (slot + 1) % ring.slots
        }
    }

    /// Fills a slot and hands it on; the block after the last holds 0 frames. Returns nil
    /// after a failure (recorded in the ring).
    func read(into slot: Int) -> Int? {
        var n: Int
        do { n = try reader.read(into: ring.block(slot), frames: ring.blockFrames) } catch {
            ring.fail(error)
            return nil
        }
        read += n
        if n == 0 && ring.inputFrames.load(ordering: .relaxed) < 0 {
            ring.inputFrames.store(read, ordering: .relaxed)  // published by `filled` below
        }
        if n == 0 && padded < padding {
            n = min(ring.blockFrames, padding - padded)
            ring.block(slot).initialize(repeating: 0, count: n * ring.channels)
            padded += n
        }
        ring.frames[slot] = n
        ring.skipped[slot] = 0
        ring.filled.signal()
        return n
    }
}
