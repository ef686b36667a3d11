/// The writer thread: converts processed slots to the output's encoding (``Quantizer`` for
/// integer PCM, clipping for other non-float encodings) and writes them. Without a writer it
/// only hands the slots back: the measuring pass of `--normalize`.
final class WriteStage: @unchecked Sendable {
    private let writer: SoundFileWriter?
    private let ring: BlockRing
    private let integers: UnsafeMutablePointer<Int32>
    private var quantizer: Quantizer?
    private let clipsFloats: Bool
    private var floatClips: Int64 = 0

    /// Samples clipped so far (read after the thread is joined).
    var clipped: Int64 { (quantizer?.clipped ?? 0) + floatClips }

    /// The dither the output gets (none above 16 bits; plain TPDF where shaping does not fit
    /// the rate); nil for outputs that are not integer PCM.
    var dither: Dither? { quantizer?.mode }

    init(writer: SoundFileWriter?, ring: BlockRing, dither: Dither, sampleRate: Int) {
        self.writer = writer
        self.ring = ring
        let bits = writer?.format.pcmBits
        quantizer = bits.map {  // it dithers at 16 bits or fewer
            Quantizer(bits: $0, dither: dither, channels: ring.channels, sampleRate: sampleRate)
        }
        clipsFloats = writer.map { bits == nil && !$0.format.isFloatingPoint } ?? false
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
        guard let writer else { return }
        let block = ring.block(slot) + start * ring.channels, count = n * ring.channels
        if quantizer != nil {
            quantizer!.quantize(block, count: count, into: integers)
            try writer.write(UnsafePointer(integers), frames: n)
            return
        }
        if clipsFloats { floatClips += Quantizer.clipToUnit(block, count: count) }
        try writer.write(UnsafePointer(block), frames: n)
    }
}
