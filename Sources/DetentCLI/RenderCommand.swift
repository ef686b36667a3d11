import ArgumentParser
import OfflineRender
import RenderJobs
import Rig

/// `detent render`: runs audio files through the engine offline, as they would sound live.
///
/// ```sh
/// detent render take.wav                          # → take.detent.wav
/// detent render take.wav -o dark.flac --set cutoff=400 --set gain=-3dB
/// detent render stems/*.wav --out-dir out --automation sweep.txt --json
/// ```
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render audio files through the processor or chain, offline.",
        discussion: """
            Any format libsndfile reads. The output keeps the input's sample rate, channels, \
            container and encoding unless --channels, --format or --subtype say otherwise, and appears only \
            when complete. Exit status: 0 success, 64 usage, 65 bad data, 74 I/O error, \
            130/143 interrupted; for several files, the first failed file's. Batches at scale \
            (--manifest, --variants, --shard, --skip-existing): docs/batches.md.
            """
    )

    @Argument(help: ArgumentHelp("Audio files to render (- for stdin).", valueName: "input"), completion: .file())
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Output file (one input only; - for stdout). Default: <stem>.detent.<ext> beside the input.", valueName: "file"),
            completion: .file())
    var output: String?

    @Option(name: .customLong("out-dir"), help: ArgumentHelp(
        "Folder for the outputs, named like their inputs.", valueName: "dir"), completion: .directory)
    var outDir: String?

    @OptionGroup var plugin: PluginOption

    @OptionGroup var starting: StartingValueOptions

    @Option(help: ArgumentHelp("Automation file: one event per line, TIME ID VALUE [ramp DURATION] (docs/automation.md).", valueName: "file"),
            completion: .file())
    var automation: String?

    @Option(help: ArgumentHelp(
        "Standard MIDI File (type 0 or 1) whose notes and controllers play the instrument or MIDI effect, each at its exact frame; the output lasts at least as long as the file. With no input file (and -o), an instrument renders from it alone.",
        valueName: "file"), completion: .file(extensions: ["mid", "midi", "smf"]))
    var midi: String?

    @Option(name: .customLong("midi-out"), help: ArgumentHelp(
        "Write the plug-in's MIDI output to this Standard MIDI File (type 0, at the --bpm tempo or 120, 960 ticks a quarter note, each message at the tick nearest its frame). With no input file, renders as long as --midi and --tail say: how MIDI-only plug-ins (a transposer, a sequencer) are hosted.",
        valueName: "file"), completion: .file(extensions: ["mid"]))
    var midiOut: String?

    @Option(help: ArgumentHelp(
        "Feed this audio file to a slot's side-chain inputs (a compressor or gate keyed by it): SLOT=FILE, or FILE alone when one slot has them. The key starts with the input, its channels folded to the input's, silence after its end; it must have the input's sample rate. Repeat for several slots.",
        valueName: "slot=file"), completion: .file())
    var sidechain: [String] = []

    @Option(name: .customLong("input"), help: ArgumentHelp(
        "Feed this audio file to a graph's named input (--graph): NAME=FILE. It starts with the input, folded to its channels, silence after its end; it must have the input's sample rate.",
        valueName: "name=file"), completion: .file())
    var namedInputs: [String] = []

    @Option(help: ArgumentHelp(
        "With --midi and no input file, the sample rate of the instrument's output (default 48000).",
        valueName: "hz"))
    var rate: Int?

    @Option(help: ArgumentHelp(
        "The channels the chain works in and the output has: the input's folded to them (mono into every channel, stereo into four as L R L R; more into fewer, their mean), as an ambisonic encoder's outputs need. With --midi and no input file, the instrument's (default 2).",
        valueName: "n"))
    var channels: Int?

    @Option(help: ArgumentHelp(
        "The tempo tempo-synced plug-ins follow (LV2 time:Position: a delay synced to the beat), the transport rolling from the first frame: 1 … 999.",
        valueName: "bpm"))
    var bpm: Double?

    // `--format` and `--subtype` are taken as text and resolved by `validate()`, so that an
    // unknown name is told in Detent's words rather than ArgumentParser's; their help and
    // shell completions list the names.
    @Option(help: ArgumentHelp(
        "Output container: \(Container.allValueStrings.joined(separator: ", ")).", valueName: "format"),
            completion: Container.defaultCompletionKind)
    var format: String?

    @Option(help: ArgumentHelp(
        "Output encoding: \(Subtype.allValueStrings.joined(separator: ", ")).", valueName: "subtype"),
            completion: Subtype.defaultCompletionKind)
    var subtype: String?

    @OptionGroup var encoder: EncodingOptions
    // Taken whatever it looks like (`--normalize -23` is a value, not the options -2 and -3)
    // and read by `validate()`, so a bad target is told in Detent's words.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Render twice: measure, then apply a constant gain after the processor so the output's integrated loudness is this many LUFS (-70 … 0, e.g. -23 or -14).",
        valueName: "lufs"))
    var normalize: String?

    @Flag(help: ArgumentHelp("Measure each output's integrated loudness (EBU R128) and true peak, for --json and a "
        + "warning over 0 dBTP (several times the render's time; on with --normalize)."))
    var loudness = false

    /// What the output's meter measures: none, integrated, true-peak (benchmarks measure the
    /// cost of each; the summary loses what is not measured). Overrides `--loudness`.
    @Option(name: .customLong("measure"), help: .hidden)
    var measures: String?


    @Option(help: ArgumentHelp("Files rendered at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    /// Frames per block; the output does not depend on it (tests and benchmarks set it).
    @Option(name: .customLong("block-frames"), help: .hidden)
    var blockFrames: Int?

    @Option(help: ArgumentHelp(
        "Render this much silence after the input so reverbs and delays ring out: seconds (2, 2s, 500ms), or auto (until the output stays below -90 dBFS, at most 30 s).",
        valueName: "seconds|auto"))
    var tail: String?

    @Option(name: .customLong("block"), help: ArgumentHelp(
        "The longest stretch a plug-in's run() is given, 16 … 65536 frames (default 4096, what a live host uses at most). A plug-in whose output depends only on its values renders the same for any; some (x42's darc) do not.",
        valueName: "frames"))
    var kernelFrames: Int?

    /// Frames between writes of a plug-in's gliding controls, a power of two (benchmarks
    /// measure zipper against cost with it).
    @Option(name: .customLong("control-interval"), help: .hidden)
    var controlInterval: Int?

    /// Threads for file I/O beside the engine's, 0, 1 or 2 (default: 2 given three cores per
    /// render, 1 given two, 0 given one); the output does not depend on it (tests and
    /// benchmarks set it).
    @Option(name: .customLong("io-threads"), help: .hidden)
    var ioThreads: Int?

    @Flag(name: .customLong("no-metadata"), help: "Do not copy tags, the broadcast extension (bext), cue points or the instrument (loops).")
    var noMetadata = false

    /// Run as a batch's worker process (``RenderWorker``): render the jobs sent on descriptor 3.
    @Flag(name: .customLong("render-worker"), help: .hidden)
    var renderWorker = false

    /// Host plug-ins in this process rather than in worker processes (benchmarks compare the two).
    @Flag(name: .customLong("in-process"), help: .hidden)
    var inProcess = false

    @Flag(help: "Overwrite existing outputs.")
    var force = false

    @Flag(help: "No progress line, nor the count line that ends a batch.")
    var quiet = false

    @Flag(help: "Print one JSON summary object per file on stdout.")
    var json = false

    @OptionGroup(title: "Batches") var batch: BatchOptions

    /// What the options ask, as the value the render is planned from.
    var options: RenderOptions {
        var options = RenderOptions()
        options.inputs = inputs
        options.output = output
        options.outDir = outDir
        options.plugin = plugin.choice
        options.starting = starting.choice
        options.automation = automation
        options.midi = midi
        options.midiOut = midiOut
        options.sidechains = sidechain
        options.namedInputs = namedInputs
        options.bpm = bpm
        options.rate = rate
        options.channels = channels
        options.format = format
        options.subtype = subtype
        options.encoder = encoder.choice
        options.normalize = normalize
        options.loudness = loudness
        options.measures = measures
        options.jobs = jobs
        options.blockFrames = blockFrames
        options.tail = tail
        options.kernelFrames = kernelFrames
        options.controlInterval = controlInterval
        options.ioThreads = ioThreads
        options.noMetadata = noMetadata
        options.inProcess = inProcess
        options.force = force
        options.quiet = quiet
        options.json = json
        options.batch = batch.choice
        return options
    }

    /// Checked first thing here rather than in ArgumentParser's `validate()`, which comes
    /// before its check for unknown options: `--bpm 120` must be told as the unknown option it
    /// is, not as a second input (`120`).
    func run() throws {
        let options = self.options
        if renderWorker {
            do { try options.check() } catch { throw CommandFailure(error) }
            return RenderWorker.serve(options)
        }
        try Self.render(options)
    }

    /// Renders what `options` ask (also straight from ``PlainRenderArguments``).
    static func render(_ options: RenderOptions) throws {
        let status = try options.run(arguments: Array(CommandLine.arguments.dropFirst()))
        if status != 0 { throw ExitCode(status) }
    }
}

/// Output containers and encodings as option values: named in any case (`--format FLAC`); help
/// and shell completions list the names.
extension Container: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension Subtype: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
