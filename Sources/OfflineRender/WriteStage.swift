/// The writer thread: converts processed slots to the output's encoding (``SampleEncoder``:
/// ``Quantizer`` for integer PCM, clipping for other non-float encodings) and writes them.
/// Without a writer it only hands the slots back: the measuring pass of `--normalize`.
final class WriteStage: @unchecked Sendable {
    private let encoder: SampleEncoder?
    private let ring: BlockRing

    /// Samples clipped so far (read after the thread is joined).
    var clipped: Int64 { encoder?.clipped ?? 0 }

    /// The dither the output gets (none above 16 bits; plain TPDF where shaping does not fit
    /// the rate); nil for outputs that are not integer PCM.
    var dither: Dither? { encoder?.dither }

    init(writer: SoundFileWriter?, ring: BlockRing, dither: Dither, sampleRate: Int) {
        self.ring = ring
        encoder = writer.map { SampleEncoder(writer: $0, dither: dither, sampleRate: sampleRate, capacity: ring.blockFrames) }
    }

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
        let n = ring.frames[slot], skip = ring.skipped[slot]
        if n == 0 { return false }
        if n == skip { return true }
        do { try write(slot: slot, from: skip, frames: n - skip) } catch {
            ring.fail(error)
            return false
        }
        return true
    }

    private func write(slot: Int, from start: Int, frames n: Int) throws(AudioFileError) {
        try encoder?.write(ring.block(slot) + start * ring.channels, frames: n)
    }
}
