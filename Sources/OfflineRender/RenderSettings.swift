import Parameters
import AudioEngine
import Platform

/// Everything about a render except which file: the sound (starting values, automation) and
/// the output (format, dither, overwriting).
public struct RenderSettings: Sendable {
    /// Parameter values from the first sample (a preset with `--set` overrides), in each
    /// parameter's unit. Missing ids take the table's default.
    public var startingValues: [ParameterIndex: Double] = [:]
    /// What the engine runs (the built-in lowpass + gain unless told otherwise).
    public var processor: Processor = .lowpassGain
    /// Timed parameter events.
    public var automation: Automation = .none
    /// Output container; nil keeps the input's.
    public var container: Container?
    /// Output encoding; nil keeps the input's (or the container's preferred one).
    public var subtype: Subtype?
    /// The dither of outputs of 16 bits or fewer.
    public var dither = Dither.tpdf
    /// Quality, bit rate or compression level for encoders that have them.
    public var encoder = EncoderSettings()
    /// Copy the input's tags, broadcast extension and cue points to the output.
    public var keepsMetadata = true
    /// Replace an existing output.
    public var overwrite = false
    /// Frames per block read, processed and written; nil chooses by the input's length
    /// (``blockFrames(forLength:)``). Memory is proportional to this, never to the file's
    /// length, and the output does not depend on it.
    public var blockFrames: Int?
    /// Silence rendered after the input so that reverbs and delays ring out: none, a fixed
    /// time, or until the output stays quiet. A processor's latency is always compensated
    /// on top (the output starts aligned with the input).
    public var tail: Tail = .none

    /// `--normalize`: the integrated loudness (LUFS) the output should have. A first pass
    /// renders and measures without writing; the second applies the difference as a constant
    /// gain after the processor, so automation and smoothing sound as they would without it.
    /// nil: no normalisation.
    public var normalize: Double?

    /// The targets `--normalize` accepts, in LUFS: down to the absolute gate of BS.1770,
    /// below which nothing counts as sound, up to full scale.
    public static let normalizeRange = -70.0...0.0

    /// What the output's meter measures: nothing unless asked (`--loudness`, `--normalize`),
    /// since libebur128 takes several times the render's own time.
    public var measures: LoudnessMeter.Measures = .none

    public enum Tail: Sendable, Equatable {
        case none
        case seconds(Double)
        /// Until a whole step of 100 ms stays below −90 dBFS, at most ``RenderSettings/longestTail``.
        case auto
    }

    /// The longest `--tail auto` renders, in seconds.
    public static let longestTail = 30.0

    /// Frames of silence `tail` adds after the input at `sampleRate` (at most, for `.auto`).
    func tailFrames(sampleRate: Int) -> Int {
        let rate = Double(sampleRate)
        return switch tail {
        case .none: 0
        case .seconds(let s): Int((s * rate).rounded())
        case .auto: Int(Self.longestTail * rate)
        }
    }

    /// The most frames an output can hold for an input of `input` frames (nil: unknown): the
    /// input, the longest tail, and a processor's latency, counted as up to a second because
    /// the format is chosen before the processor is started.
    func mostFrames(input: Int64?, sampleRate: Int) -> Int64? {
        input.map { max($0, midiFrames(sampleRate: sampleRate)) + Int64(tailFrames(sampleRate: sampleRate)) + Int64(sampleRate) }
    }

    /// Notes and other MIDI messages for the processor (`--midi`): played at their frames, the
    /// output lasting at least as long as the file.
    public var midi: MIDIFile?
    /// The path `midi` was read from, to name it in messages.
    public var midiPath: String?

    /// Where the processor's MIDI output goes (`--midi-out`): a Standard MIDI File at the
    /// render's tempo (``MIDIFileWriter``), committed with the audio output; nil: nowhere.
    public var midiOut: String?

    /// Side-chain keys (`--sidechain SLOT=FILE`): the slots whose side-chain inputs hear a file
    /// instead of silence, from the input's first frame on (see ``SidechainKeys``); and a
    /// graph's named inputs (`--input NAME=FILE`).
    public var sidechains: [Sidechain] = []

    /// One slot's key: `slot` is its index in the chain (0 for a processor on its own); or,
    /// with `namedInput` k ≥ 1, a graph's named input k (`--input NAME=FILE`), read alike.
    public struct Sidechain: Sendable, Equatable {
        public var slot: Int
        public var path: String
        public var namedInput: Int
        public init(slot: Int, path: String, namedInput: Int = 0) {
            self.slot = slot
            self.path = path
            self.namedInput = namedInput
        }
    }

    /// The tempo tempo-synced processors follow (`--bpm`), the transport rolling from the
    /// first frame; nil tells them none.
    public var beatsPerMinute: Double?
    /// The channels the render works in and writes (`--channels`): the input's folded to them
    /// (``SoundFileReader/fold(to:)``); nil for the input's own.
    public var channels: Int?

    /// The MIDI file's length in frames (0 without one).
    func midiFrames(sampleRate: Int) -> Int64 {
        midi.map { Int64(($0.duration * Double(sampleRate)).rounded(.up)) } ?? 0
    }

    /// How often a plug-in's gliding controls are written, in frames (a power of two; the
    /// engine's default unless a benchmark measures another).
    public var controlInterval = Int(Engine.externalInterval)
    /// The longest `run` a plug-in is given (`--block`), whatever the blocks files are read in.
    public var kernelFrames = Engine.defaultKernelFrames
    /// How reading and writing share threads (the output is the same either way).
    public var ioThreads = IOThreads.forCores(RenderSettings.cores)
    /// Files the output must never replace, even with `--force`: every file the batch reads
    /// (its jobs' inputs, keys, graphs, automation…), and what each is to it.
    package var protectedFiles: [FileIdentity: ReadFileRole] = [:]

    /// Large enough that per-block costs vanish against per-sample ones, small enough that
    /// every buffer stays in the CPU's cache. A 10-minute render took 1.05× the time in
    /// blocks of 8192 frames and 1.21× in blocks of 4096, each block handed between threads.
    public static let defaultBlockFrames = 16_384

    /// The block for an input of `length` frames (nil: unknown, a stream). An input shorter
    /// than eight default blocks gets blocks of an eighth of its length (a power of two, at
    /// least 4096): a short file's render then touches less fresh memory, each page of which
    /// is a page fault the first time, while it still runs in a handful of blocks.
    public static func blockFrames(forLength length: Int64?) -> Int {
        guard let length, length < Int64(8 * defaultBlockFrames) else { return defaultBlockFrames }
        var frames = 4_096
        while frames < defaultBlockFrames && Int64(frames) * 8 < length { frames *= 2 }
        return frames
    }

    public init() {}

    /// The cores this process may run on, counted once (the count reads a file of the
    /// kernel's, and every job of a batch makes its settings).
    public static let cores = ThisProcess.processorCount
}

/// The threads a render's file I/O runs on, beside the engine's.
public enum IOThreads: Sendable {
    /// A reader and a writer thread: every stage on its own core, given three.
    case separate
    /// One thread that reads and writes in turns (see `IOStage`): with fewer than three
    /// cores, three busy threads would only take turns on them.
    case shared
    /// None: the engine's thread reads, renders and writes each block in turn. For a render
    /// with one core to itself (a batch's worker beside others): there, overlapping the
    /// stages buys nothing, and handing each block to another thread costs a wake-up, and
    /// each file a thread. A stream's input (a pipe or FIFO, whatever length its header
    /// declares) still gets a thread, so that a stop asked for while it stalls is acted on.
    case inline

    /// The layout for renders that have `cores` cores to themselves.
    public static func forCores(_ cores: Int) -> IOThreads {
        cores >= 3 ? .separate : cores == 2 ? .shared : .inline
    }
}

/// How far a render has got, reported once per block.
public struct RenderProgress: Sendable, Equatable {
    public var frames: Int64
    /// nil when the input's length is unknown (a stream).
    public var totalFrames: Int64?
    public var sampleRate: Int

    public init(frames: Int64, totalFrames: Int64?, sampleRate: Int) {
        self.frames = frames
        self.totalFrames = totalFrames
        self.sampleRate = sampleRate
    }
}

/// What a file a render reads is to it, to name the file an output or a written manifest
/// would destroy.
public enum ReadFileRole: String, Sendable {
    case input = "an input"
    case sidechain = "a side-chain key"
    case namedInput = "a graph's named input"
    case graph = "the graph file"
    case chain = "the chain file"
    case preset = "the preset file"
    case automation = "the automation file"
    case midi = "the MIDI file"
    case fileParameter = "a file parameter's file"
    case manifest = "the manifest"
}
