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
