/// The audit's audio and MIDI buffers, allocated once before the first block, so that
/// nothing of Detent's allocates inside a real-time region.
final class AuditBuffers {
    let channels: Int
    let frames: Int
    let input: UnsafeMutablePointer<UnsafePointer<Float>>
    let output: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let samples: UnsafeMutablePointer<Float>
    /// Up to ``midiCapacity`` three-byte messages, and their frames.
    let midi: UnsafeMutablePointer<UInt8>
    let midiFrames: UnsafeMutablePointer<Int>
    var midiCount = 0
    static let midiCapacity = 4

    init(channels: Int, frames: Int) {
        self.channels = channels
        self.frames = frames
        samples = .allocate(capacity: 2 * channels * frames)
        samples.initialize(repeating: 0, count: 2 * channels * frames)
        input = .allocate(capacity: channels)
        output = .allocate(capacity: channels)
        for c in 0..<channels {
            input[c] = UnsafePointer(samples + c * frames)
            output[c] = samples + (channels + c) * frames
        }
        midi = .allocate(capacity: 3 * Self.midiCapacity)
        midi.initialize(repeating: 0, count: 3 * Self.midiCapacity)
        midiFrames = .allocate(capacity: Self.midiCapacity)
        midiFrames.initialize(repeating: 0, count: Self.midiCapacity)
    }

    func deallocate() {
        samples.deallocate()
        input.deallocate()
        output.deallocate()
        midi.deallocate()
        midiFrames.deallocate()
    }

    /// Channel `c`'s input, to fill.
    func inputChannel(_ c: Int) -> UnsafeMutablePointer<Float> { samples + c * frames }

    /// Queues a three-byte MIDI message at `frame` for the next block.
    func addMIDI(frame: Int, _ bytes: [UInt8]) {
        guard midiCount < Self.midiCapacity else { return }
        for i in 0..<3 { midi[3 * midiCount + i] = bytes[i] }
        midiFrames[midiCount] = frame
        midiCount += 1
    }
}

/// A second of white noise per channel, which the audit's blocks read in turn.
struct Noise {
    private let samples: [[Float]]

    init(frames: Int, channels: Int) {
        var generator = Generator(seed: 0xD37E47)
        samples = (0..<channels).map { _ in (0..<frames).map { _ in Float(generator.unit() * 1.2 - 0.6) } }
    }

    /// Fills the input of block `block` (silence when `silent`).
    func fill(_ buffers: AuditBuffers, block: Int, frames: Int, silent: Bool) {
        for c in 0..<buffers.channels {
            let destination = buffers.inputChannel(c)
            let source = samples[c]
            for i in 0..<frames {
                destination[i] = silent ? 0 : source[(block * frames + i) % source.count]
            }
        }
    }

    /// SplitMix64: the same noise and the same control jumps on every run.
    struct Generator {
        private var state: UInt64
        init(seed: UInt64) { state = seed }

        /// A number in 0 ..< 1.
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53)
        }
    }
}
