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

    /// Fills a slot and hands it on; every block is whole but the stream's last, and the
    /// block after the last holds 0 frames. Returns nil
    /// after a failure (recorded in the ring).
    func read(into slot: Int) -> Int? {
        // Whole blocks until the input ends: a reader may return fewer frames than asked
        // before its end (a stream past its header's placeholder length).
        var n = 0
        do {
            while n < ring.blockFrames {
                let got = try reader.read(into: ring.block(slot) + n * ring.channels, frames: ring.blockFrames - n)
                if got == 0 { break }
                n += got
            }
        } catch {
            ring.fail(error)
            return nil
        }
        read += n
        if n < ring.blockFrames && ring.inputFrames.load(ordering: .relaxed) < 0 {
            ring.inputFrames.store(read, ordering: .relaxed)  // published by `filled` below
        }
        // The input's last block goes on with the padding, so every block but the stream's
        // last is whole (a whole-block plug-in is padded there only).
        if n < ring.blockFrames && padded < padding {
            let more = min(ring.blockFrames - n, padding - padded)
            (ring.block(slot) + n * ring.channels).initialize(repeating: 0, count: more * ring.channels)
            n += more
            padded += more
        }
        ring.frames[slot] = n
        ring.skipped[slot] = 0
        ring.filled.signal()
        return n
    }
}
