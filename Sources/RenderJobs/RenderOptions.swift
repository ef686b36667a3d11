import AudioEngine
import LV2
import OfflineRender
import Parameters
import Platform
import Presets
import Rig

/// Everything `detent render` is asked, as a plain value: the command line fills it (through
/// its options), a manifest line changes it per job (``ManifestFields``), and it is checked,
/// planned and run here, the same whoever filled it.
package struct RenderOptions: Sendable, Equatable {
    /// Audio files to render (`-` for stdin).
    package var inputs: [String] = []
    /// `-o`: one input's output (`-` for stdout).
    package var output: String?
    /// `--out-dir`.
    package var outDir: String?
    package var plugin = PluginChoice()
    package var starting = StartingChoice()
    package var automation: String?
    package var midi: String?
    package var midiOut: String?
    /// `--sidechain [SLOT=]FILE`, resolved against the processor by ``SidechainChoice``.
    package var sidechains: [String] = []
    /// `--input NAME=FILE`: a graph's named inputs, resolved by ``SidechainChoice``.
    package var namedInputs: [String] = []
    package var bpm: Double?
    /// `--rate` and `--channels`: an instrument's output rendered from MIDI alone.
    package var rate: Int?
    package var channels: Int?
    /// `--format` and `--subtype` by name, read by ``container`` and ``encoding``.
    package var format: String?
    package var subtype: String?
    package var encoder = EncodingChoice()
    /// `--normalize`, read by ``normalizeTarget``.
    package var normalize: String?
    package var loudness = false
    /// `--measure` (hidden), read by ``measureSetting``.
    package var measures: String?
    package var jobs: Int?
    package var blockFrames: Int?
    /// `--tail`, read by ``tailSetting``.
    package var tail: String?
    package var kernelFrames: Int?
    package var controlInterval: Int?
    package var ioThreads: Int?
    package var noMetadata = false
    /// Host plug-ins in this process rather than in worker processes.
    package var inProcess = false
    package var force = false
    package var quiet = false
    package var json = false
    package var batch = BatchChoice()

    package init() {}

    /// The checks that need no file: each a usage error (64), told before anything is read.
    package func check() throws(UsageError) {
        if rate != nil, !rendersMIDIAlone {
            throw UsageError("--rate is for an instrument rendered from MIDI alone (--midi FILE -o OUT, no input file)")
        }
        if let rate, !SoundFileReader.sampleRates.contains(rate) || rate > 768_000 {
            throw UsageError("--rate \(rate): expected a sample rate of 1000 … 768000 Hz")
        }
        if let channels, !(1...64).contains(channels) { throw UsageError("--channels \(channels): expected 1 … 64") }
        if batch.manifest != nil {
            guard inputs.isEmpty else { throw UsageError("use either input files or --manifest, not both") }
            if output != nil { throw UsageError("-o names one output; a manifest names each job's (or use --out-dir)") }
        } else if rendersMIDIAlone {
            // An instrument from a MIDI file: the output is as long as the file plus --tail.
            if outDir != nil { throw UsageError("-o names the output of a render from MIDI alone; --out-dir needs input files") }
            if normalize != nil && output == "-" {
                throw UsageError("--normalize renders twice; -o - can be written only once (render to a file)")
            }
            if tail?.lowercased().trimmedWhitespace == "auto" {
                throw UsageError("--tail auto listens for an input's end; a render from MIDI alone has none: give seconds")
            }
        } else if inputs.isEmpty, let midiOut {
            // From a MIDI file to a MIDI file: no audio on either side.
            guard midi != nil || tail != nil else {
                throw UsageError("--midi-out \(midiOut) with no input file lasts as long as --midi FILE and --tail SECONDS: give either")
            }
            if output != nil || outDir != nil { throw UsageError("-o and --out-dir name audio outputs; a render with no input file writes only --midi-out") }
            if normalize != nil { throw UsageError("--normalize measures audio; a render with no input file has none") }
            if tail?.lowercased().trimmedWhitespace == "auto" {
                throw UsageError("--tail auto listens for the audio to end; a render with no input file has none: give seconds")
            }
        } else {
            guard !inputs.isEmpty else {
                if midi != nil { throw UsageError("--midi FILE with no input file renders an instrument: name its output with -o FILE") }
                throw UsageError("render: no input files (detent render --help)")
            }
        }
        if midiOut != nil && (inputs.count > 1 || batch.manifest != nil || batch.variants != nil) {
            throw UsageError("--midi-out names one MIDI file: render one input with it")
        }
        if let midiOut, midiOut == output { throw UsageError("--midi-out \(midiOut) is also the audio output (-o)") }
        if output != nil && outDir != nil { throw UsageError("use either -o or --out-dir, not both") }
        if output != nil && inputs.count > 1 {
            throw UsageError("-o names one output, but \(inputs.count) inputs were given; use --out-dir")
        }
        if output == "-" && json { throw UsageError("-o - writes the audio to stdout; --json cannot share it") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError("- (stdin) can be read only once") }
        if inputs.contains("-") && batch.manifest == "-" { throw UsageError("- (stdin) can be read only once") }
        if let jobs, jobs < 1 { throw UsageError("--jobs \(jobs): must be at least 1") }
        if let ioThreads, !(0...2).contains(ioThreads) {
            throw UsageError("--io-threads \(ioThreads): must be 0, 1 or 2")
        }
        if let controlInterval, !(1...4096).contains(controlInterval) || controlInterval & (controlInterval - 1) != 0 {
            throw UsageError("--control-interval \(controlInterval): must be a power of two, 1 … 4096")
        }
        if let blockFrames, !(1...1 << 20).contains(blockFrames) {
            throw UsageError("--block-frames \(blockFrames): must be 1 … \(1 << 20)")
        }
        try checkFileOptions()
        try encoder.validate()
        try batch.check()
        if batch.skipExisting && force { throw UsageError("use either --skip-existing or --force, not both") }
        if batch.variants != nil && output == "-" { throw UsageError("--variants writes several files; -o - cannot hold them") }
    }

    /// True for an instrument rendered from MIDI alone: `--midi FILE -o OUT` with no input
    /// file and no manifest.
    package var rendersMIDIAlone: Bool {
        inputs.isEmpty && batch.manifest == nil && midi != nil && output != nil
    }

    /// The checks of the options a manifest line may set too (``ManifestFields``): run for
    /// the command line, and again for each line with its fields applied.
    package func checkFileOptions() throws(UsageError) {
        _ = try tailSetting
        if let bpm, !bpm.isFinite || !TransportPosition.tempoRange.contains(bpm) {
            throw UsageError("--bpm \(bpm): expected a tempo of 1 … 999 beats per minute")
        }
        if let kernelFrames, !(16...65_536).contains(kernelFrames) {
            throw UsageError("--block \(kernelFrames): must be 16 … 65536 frames")
        }
        _ = try container
        _ = try encoding
        if try normalizeTarget != nil && inputs.contains("-") {
            throw UsageError("--normalize reads its input twice; - (stdin) can be read only once (render it to a file first)")
        }
        _ = try measureSetting
    }

    /// `--normalize`: a loudness in LUFS (`-23`, `-23LUFS`), within ``RenderSettings/normalizeRange``.
    package var normalizeTarget: Double? {
        get throws(UsageError) {
            guard let normalize else { return nil }
            var text = normalize.lowercased().trimmedWhitespace
            if text.hasSuffix("lufs") { text = String(text.dropLast(4)).trimmedWhitespace }
            let range = RenderSettings.normalizeRange
            guard let value = DecimalText.number(text), range.contains(value) else {
                throw UsageError("--normalize '\(normalize)': expected an integrated loudness in LUFS, "
                    + "\(Int(range.lowerBound)) … \(Int(range.upperBound)) (e.g. -23)")
            }
            return value
        }
    }

    /// `--measure` (hidden).
    package var measureSetting: LoudnessMeter.Measures {
        get throws(UsageError) {
            guard let measures else { return loudness || normalize != nil ? .truePeak : .none }
            guard let value = LoudnessMeter.Measures(rawValue: measures) else {
                throw UsageError("--measure '\(measures)': expected "
                    + LoudnessMeter.Measures.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }
    }

    /// `--tail`: `auto`, or a time in seconds (`2`, `2s`) or milliseconds (`500ms`).
    package var tailSetting: RenderSettings.Tail {
        get throws(UsageError) {
            guard let tail else { return .none }
            let text = tail.lowercased().trimmedWhitespace
            if text == "auto" { return .auto }
            let (digits, scale) = text.hasSuffix("ms") ? (String(text.dropLast(2)), 0.001)
                : text.hasSuffix("s") ? (String(text.dropLast()), 1.0) : (text, 1.0)
            guard let value = DecimalText.number(digits.trimmedWhitespace), value >= 0,
                  value * scale <= 3_600 else {
                throw UsageError("--tail '\(tail)': expected seconds (2, 2s, 500ms, up to an hour) or auto")
            }
            return value == 0 ? .none : .seconds(value * scale)
        }
    }

    /// `--format`, by name in any case.
    package var container: Container? {
        get throws(UsageError) {
            try format.map { name throws(UsageError) in try Container.named(name, option: "--format") }
        }
    }

    /// `--subtype`, by name in any case.
    package var encoding: Subtype? {
        get throws(UsageError) {
            try subtype.map { name throws(UsageError) in try Subtype.named(name, option: "--subtype") }
        }
    }
}
