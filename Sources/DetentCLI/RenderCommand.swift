import ArgumentParser
import LV2
import OfflineRender
import Parameters
import AudioEngine
import Presets
import Platform

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
            container and encoding unless --format or --subtype say otherwise, and appears only \
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
        "Standard MIDI File (type 0 or 1) whose notes and controllers play the instrument or MIDI effect, each at its exact frame; the output lasts at least as long as the file.",
        valueName: "file"), completion: .file(extensions: ["mid", "midi", "smf"]))
    var midi: String?

    @Option(name: .customLong("midi-out"), help: ArgumentHelp(
        "Write the plug-in's MIDI output to this Standard MIDI File (type 0, at the --bpm tempo or 120, 960 ticks a quarter note, each message at the tick nearest its frame). With no input file, renders as long as --midi and --tail say: how MIDI-only plug-ins (a transposer, a sequencer) are hosted.",
        valueName: "file"), completion: .file(extensions: ["mid"]))
    var midiOut: String?

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

    /// Threads for file I/O beside the engine's, 1 or 2 (default: 2 given three cores per
    /// render); the output does not depend on it (tests and benchmarks set it).
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

    /// The checks that need no file: each a usage error (64), told before anything is read.
    /// Run first thing in ``run()`` rather than as ArgumentParser's `validate()`, which comes
    /// before its check for unknown options: `--bpm 120` must be told as the unknown option it
    /// is, not as a second input (`120`).
    func checkOptions() throws {
        if batch.manifest != nil {
            guard inputs.isEmpty else { throw ValidationError("use either input files or --manifest, not both") }
            if output != nil { throw ValidationError("-o names one output; a manifest names each job's (or use --out-dir)") }
        } else if inputs.isEmpty, let midiOut {
            // From a MIDI file to a MIDI file: no audio on either side.
            guard midi != nil || tail != nil else {
                throw ValidationError("--midi-out \(midiOut) with no input file lasts as long as --midi FILE and --tail SECONDS: give either")
            }
            if output != nil || outDir != nil { throw ValidationError("-o and --out-dir name audio outputs; a render with no input file writes only --midi-out") }
            if normalize != nil { throw ValidationError("--normalize measures audio; a render with no input file has none") }
            if tail?.lowercased().trimmedWhitespace == "auto" {
                throw ValidationError("--tail auto listens for the audio to end; a render with no input file has none: give seconds")
            }
        } else {
            guard !inputs.isEmpty else { throw ValidationError("render: no input files (detent render --help)") }
        }
        if midiOut != nil && (inputs.count > 1 || batch.manifest != nil || batch.variants != nil) {
            throw ValidationError("--midi-out names one MIDI file: render one input with it")
        }
        if let midiOut, midiOut == output { throw ValidationError("--midi-out \(midiOut) is also the audio output (-o)") }
        if output != nil && outDir != nil { throw ValidationError("use either -o or --out-dir, not both") }
        if output != nil && inputs.count > 1 {
            throw ValidationError("-o names one output, but \(inputs.count) inputs were given; use --out-dir")
        }
        if output == "-" && json { throw ValidationError("-o - writes the audio to stdout; --json cannot share it") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("- (stdin) can be read only once") }
        if inputs.contains("-") && batch.manifest == "-" { throw ValidationError("- (stdin) can be read only once") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs \(jobs): must be at least 1") }
        if let ioThreads, !(1...2).contains(ioThreads) {
            throw ValidationError("--io-threads \(ioThreads): must be 1 or 2")
        }
        if let controlInterval, !(1...4096).contains(controlInterval) || controlInterval & (controlInterval - 1) != 0 {
            throw ValidationError("--control-interval \(controlInterval): must be a power of two, 1 … 4096")
        }
        if let blockFrames, !(1...1 << 20).contains(blockFrames) {
            throw ValidationError("--block-frames \(blockFrames): must be 1 … \(1 << 20)")
        }
        try checkFileOptions()
        try batch.check()
        if batch.skipExisting && force { throw ValidationError("use either --skip-existing or --force, not both") }
        if batch.variants != nil && output == "-" { throw ValidationError("--variants writes several files; -o - cannot hold them") }
    }

    /// The checks of the options a manifest line may set too (``ManifestFields``): run for
    /// the command line, and again for each line with its fields applied.
    func checkFileOptions() throws {
        _ = try tailSetting
        if let bpm, !bpm.isFinite || !TransportPosition.tempoRange.contains(bpm) {
            throw ValidationError("--bpm \(bpm): expected a tempo of 1 … 999 beats per minute")
        }
        if let kernelFrames, !(16...65_536).contains(kernelFrames) {
            throw ValidationError("--block \(kernelFrames): must be 16 … 65536 frames")
        }
        _ = try container
        _ = try encoding
        if try normalizeTarget != nil && inputs.contains("-") {
            throw ValidationError("--normalize reads its input twice; - (stdin) can be read only once (render it to a file first)")
        }
        _ = try measureSetting
    }

    /// `--normalize`: a loudness in LUFS (`-23`, `-23LUFS`), within ``RenderSettings/normalizeRange``.
    var normalizeTarget: Double? {
        get throws(ValidationError) {
            guard let normalize else { return nil }
            var text = normalize.lowercased().trimmedWhitespace
            if text.hasSuffix("lufs") { text = String(text.dropLast(4)).trimmedWhitespace }
            let range = RenderSettings.normalizeRange
            guard let value = DecimalText.number(text), range.contains(value) else {
                throw ValidationError("--normalize '\(normalize)': expected an integrated loudness in LUFS, "
                    + "\(Int(range.lowerBound)) … \(Int(range.upperBound)) (e.g. -23)")
            }
            return value
        }
    }

    /// `--measure` (hidden).
    var measureSetting: LoudnessMeter.Measures {
        get throws(ValidationError) {
            guard let measures else { return loudness || normalize != nil ? .truePeak : .none }
            guard let value = LoudnessMeter.Measures(rawValue: measures) else {
                throw ValidationError("--measure '\(measures)': expected "
                    + LoudnessMeter.Measures.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }
    }

    /// `--tail`: `auto`, or a time in seconds (`2`, `2s`) or milliseconds (`500ms`).
    var tailSetting: RenderSettings.Tail {
        get throws(ValidationError) {
            guard let tail else { return .none }
            let text = tail.lowercased().trimmedWhitespace
            if text == "auto" { return .auto }
            let (digits, scale) = text.hasSuffix("ms") ? (String(text.dropLast(2)), 0.001)
                : text.hasSuffix("s") ? (String(text.dropLast()), 1.0) : (text, 1.0)
            guard let value = DecimalText.number(digits.trimmedWhitespace), value >= 0,
                  value * scale <= 3_600 else {
                throw ValidationError("--tail '\(tail)': expected seconds (2, 2s, 500ms, up to an hour) or auto")
            }
            return value == 0 ? .none : .seconds(value * scale)
        }
    }

    /// `--format`, by name in any case.
    var container: Container? {
        get throws(ValidationError) {
            try format.map { name throws(ValidationError) in try Container.named(name, option: "--format") }
        }
    }

    /// `--subtype`, by name in any case.
    var encoding: Subtype? {
        get throws(ValidationError) {
            try subtype.map { name throws(ValidationError) in try Subtype.named(name, option: "--subtype") }
        }
    }

    func run() throws {
        try checkOptions()
        if renderWorker { return RenderWorker.serve(self) }
        if inputs.isEmpty && batch.manifest == nil, let midiOut { return try renderMIDI(to: midiOut) }
        let plan: BatchPlan
        do {
            plan = try BatchPlan(self)
        } catch {
            throw CommandFailure(error)
        }

        // Workers are copies of this process made now, before any thread starts.
        let launch = isolates(plan) ? RenderWorkerLaunch(arguments: Array(CommandLine.arguments.dropFirst())) : nil
        launch?.copyWorkers(min(plan.parallel, plan.renders), serving: plan, of: self)
        defer { launch?.dismissWaiting() }
        InterruptSignal.install()
        // libmpg123 prints its own warnings for odd MP3 frames; the render's line for the file
        // says what matters.
        LibraryMessages.filter(dropping: MPEGDecoderMessages.isOwn)
        let report = RenderReport(entries: plan.entries, options: .init(
            progress: Console.stderrIsTerminal && !quiet, json: json, counts: batch.isBatch && !quiet))
        let outcomes = RenderBatch(entries: plan.entries, parallel: plan.parallel, report: report,
                                   isolation: launch).run()
        report.close()

        let signal = InterruptSignal.received.load(ordering: .relaxed)
        if signal != 0 { throw ExitCode(128 + signal) }
        for case .failed(let failure)? in outcomes { throw ExitCode(failure.exitCode) }
    }
}

extension RenderCommand {
    /// Whether the jobs of `plan` render in worker processes (``RenderWorkerProcess``), so
    /// that a plug-in that crashes fails its file alone: when one hosts a plug-in. Built-in
    /// renders stay in this process, and so does a manifest read from stdin, which a worker
    /// started again could not read again, and a render that also writes `--midi-out` (one
    /// file, whose MIDI output a worker could not hand over).
    func isolates(_ plan: BatchPlan) -> Bool {
        guard !inProcess, batch.manifest != "-", midiOut == nil else { return false }
        return plan.entries.contains { entry in
            if case .render(let settings) = entry.action { !settings.processor.isBuiltIn } else { false }
        }
    }

    /// A render with no audio file: `--midi` through the processor into `--midi-out`.
    func renderMIDI(to path: String) throws {
        InterruptSignal.install()
        let summary: MIDIRenderSummary
        do {
            let settings = try JobSettings().settings(for: self)
            summary = try MIDIRenderer.render(output: path, settings: settings, isCancelled: { InterruptSignal.isSet })
        } catch {
            let signal = InterruptSignal.received.load(ordering: .relaxed)
            if signal != 0 { throw ExitCode(128 + signal) }
            throw CommandFailure(error)
        }
        for line in summary.warnings { Console.warning(line) }
        if json { Console.out(summary.jsonValue.compactText) }
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

extension ExpressibleByArgument where Self: CaseIterable {
    /// The value named `name` in any case, or the usage error naming `option` and the names
    /// it knows.
    static func named(_ name: String, option: String) throws(ValidationError) -> Self {
        guard let value = Self(argument: name) else {
            throw ValidationError("\(option) '\(name)': unknown (known: \(allValueStrings.joined(separator: ", ")))")
        }
        return value
    }
}
