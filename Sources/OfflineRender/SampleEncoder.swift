/// Floats written in an output's encoding: integer PCM quantised by ``Quantizer`` (with its
/// dither, clips counted), floats limited to ±1 for the other encodings that clip there (µ-law,
/// lossy codecs), float encodings as they are. What every writer of processed audio goes
/// through: a render's writer thread (``WriteStage``) and the C interface's open files.
package final class SampleEncoder {
    package let writer: SoundFileWriter
    private var quantizer: Quantizer?
    private let clipsFloats: Bool
    private var floatClips: Int64 = 0
    /// Room for the integers of `capacity` frames.
    private let integers: UnsafeMutablePointer<Int32>
    /// The most frames one ``write(_:frames:)`` takes.
    package let capacity: Int

    /// Samples clipped so far.
    package var clipped: Int64 { (quantizer?.clipped ?? 0) + floatClips }

    /// The dither the output gets (none above 16 bits; plain TPDF where shaping does not fit
    /// the rate); nil for outputs that are not integer PCM.
    package var dither: Dither? { quantizer?.mode }

    /// An encoder for `writer`'s format, of blocks of at most `capacity` frames.
    package init(writer: SoundFileWriter, dither: Dither, sampleRate: Int, capacity: Int) {
        self.writer = writer
        self.capacity = capacity
        let bits = writer.format.pcmBits
        quantizer = bits.map {  // it dithers at 16 bits or fewer
            Quantizer(bits: $0, dither: dither, channels: writer.channels, sampleRate: sampleRate)
        }
        clipsFloats = bits == nil && !writer.format.isFloatingPoint
        integers = .allocate(capacity: bits == nil ? 1 : capacity * writer.channels)
    }

    deinit { integers.deallocate() }

    /// Writes `frames` (at most ``capacity``) interleaved frames of `block`, which an encoding
    /// that clips at ±1 clips in place.
    package func write(_ block: UnsafeMutablePointer<Float>, frames n: Int) throws(AudioFileError) {
        let count = n * writer.channels
        if quantizer != nil {
            quantizer!.quantize(block, count: count, into: integers)
            try writer.write(UnsafePointer(integers), frames: n)
            return
        }
        if clipsFloats { floatClips += Quantizer.clipToUnit(block, count: count) }
        try writer.write(UnsafePointer(block), frames: n)
    }
}
