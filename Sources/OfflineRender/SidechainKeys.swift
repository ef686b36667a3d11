import AudioEngine

/// The side-chain keys of one render (`--sidechain SLOT=FILE`) and a graph's named inputs
/// (`--input NAME=FILE`), read alike: each file read block by
/// block in step with the input, its channels folded to the input's as a plug-in folds the
/// main input (more channels: each the mean of those that fall on it; fewer: repeated), and
/// padded with silence once it ends, so a key shorter than the input leaves the rest unkeyed.
/// A key longer than the output is read no further than the output needs.
///
/// The keys are read on the engine's thread, before each block: a key is one more file read
/// in order, which costs little beside the engine and keeps it in step with no ring of its own.
final class SidechainKeys {
    private let readers: [SoundFileReader]
    private let slots: [Int]
    private let channels: Int
    private let blockFrames: Int
    /// A key's samples as read (its own channels), and every key folded (engine channels,
    /// interleaved, `blockFrames` frames per key).
    private let raw: UnsafeMutablePointer<Float>
    private let folded: UnsafeMutablePointer<Float>
    /// Per key, its channels' pointers into `folded` at the current offset.
    private let tables: UnsafeMutablePointer<UnsafePointer<Float>>
    private var sides: [Engine.SideInput]
    private var ended: [Bool]

    /// Opens every key. - Throws: ``AudioFileError`` for a key that cannot be read, or is at
    /// another sample rate than the input (`sampleRate`, read from `input`).
    init(_ keys: [RenderSettings.Sidechain], input: String, sampleRate: Int, channels: Int, blockFrames: Int) throws(AudioFileError) {
        var readers: [SoundFileReader] = []
        for key in keys {
            let reader = try SoundFileReader(path: key.path)
            guard reader.sampleRate == sampleRate else {
                throw .keyRate(path: key.path, rate: reader.sampleRate, input: input, inputRate: sampleRate)
            }
            readers.append(reader)
        }
        self.readers = readers
        slots = keys.map(\.slot)
        self.channels = channels
        self.blockFrames = blockFrames
        let widest = readers.map(\.channels).max() ?? 1
        raw = .allocate(capacity: blockFrames * widest)
        folded = .allocate(capacity: max(1, keys.count * blockFrames * channels))
        folded.initialize(repeating: 0, count: max(1, keys.count * blockFrames * channels))
        let tables = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: max(1, keys.count * channels))
        tables.initialize(repeating: UnsafePointer(folded), count: max(1, keys.count * channels))
        self.tables = tables
        sides = keys.indices.map { k in
            Engine.SideInput(slot: keys[k].slot, channels: UnsafePointer(tables + k * channels), stride: channels, namedInput: keys[k].namedInput)
        }
        ended = keys.map { _ in false }
    }

    /// The keys, or nil when there are none.
    static func open(_ keys: [RenderSettings.Sidechain], input: String, sampleRate: Int, channels: Int,
                     blockFrames: Int) throws(AudioFileError) -> SidechainKeys? {
        keys.isEmpty ? nil : try SidechainKeys(keys, input: input, sampleRate: sampleRate, channels: channels, blockFrames: blockFrames)
    }

    deinit {
        raw.deallocate()
        folded.deallocate()
        tables.deallocate()
    }

    /// Reads the next `frames` frames (at most the block) of every key; silence past its end.
    func read(frames n: Int) throws(AudioFileError) {
        for (k, reader) in readers.enumerated() {
            let out = folded + k * blockFrames * channels
            var got = 0
            if !ended[k] {
                while got < n {
                    let read = try reader.read(into: raw + got * reader.channels, frames: n - got)
                    if read == 0 { ended[k] = true; break }
                    got += read
                }
                ChannelFold.fold(raw, .interleaved(reader.channels), into: out, .interleaved(channels), frames: got)
            }
            (out + got * channels).update(repeating: 0, count: (n - got) * channels)
        }
    }

    /// The keys for an engine call that starts `offset` frames into the block just read.
    func withSides<R>(from offset: Int, _ body: (UnsafeBufferPointer<Engine.SideInput>) -> R) -> R {
        for k in readers.indices {
            for c in 0..<channels {
                tables[k * channels + c] = UnsafePointer(folded + k * blockFrames * channels + offset * channels + c)
            }
        }
        return sides.withUnsafeBufferPointer(body)
    }
}
