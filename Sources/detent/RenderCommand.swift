import ArgumentParser
import AudioFile
import Parameters
import DSP
import Presets
import Glibc

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
        abstract: "Render audio files through the filter and gain, offline.",
        discussion: """
            Any format libsndfile reads. The output keeps the input's sample rate, channels, \
            container and encoding unless --format or --subtype say otherwise, and appears only \
            when complete. Exit status: 0 success, 64 usage, 65 bad data, 74 I/O error, \
            130/143 interrupted.
            """
    )

    @Argument(help: ArgumentHelp("Audio files to render.", valueName: "input"))
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Output file (one input only). Default: <stem>.detent.<ext> beside the input.", valueName: "file"))
    var output: String?

    @Option(name: .customLong("out-dir"), help: ArgumentHelp(
        "Folder for the outputs, named like their inputs.", valueName: "dir"))
    var outDir: String?

    @OptionGroup var starting: StartingValueOptions

    @Option(help: ArgumentHelp("Automation file: timed parameter events (see README).", valueName: "file"))
    var automation: String?

    @Option(help: ArgumentHelp(
        "Output container: \(Container.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp(
        "Output encoding: \(Subtype.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "subtype"))
    var subtype: String?

    @Flag(name: .customLong("no-dither"), help: "Do not dither outputs of 16 bits or fewer.")
    var noDither = false

    @Option(help: ArgumentHelp("Files rendered at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    /// Frames per block; the output does not depend on it (tests and benchmarks set it).
    @Option(name: .customLong("block-frames"), help: .hidden)
    var blockFrames: Int?

    /// Threads for file I/O beside the engine's, 1 or 2 (default: 2 given three cores per
    /// render); the output does not depend on it (tests and benchmarks set it).
    @Option(name: .customLong("io-threads"), help: .hidden)
    var ioThreads: Int?

    @Flag(help: "Overwrite existing outputs.")
    var force = false

    @Flag(help: "No progress line.")
    var quiet = false

    @Flag(help: "Print one JSON summary object per file on stdout.")
    var json = false

    func run() throws {
        let jobs: [RenderJob]
        let settings: RenderSettings
        let parallel: Int
        do {
            (jobs, settings, parallel) = try prepare()
        } catch let error as UsageError {
            Console.error(error.description)
            throw ExitCode(64)
        } catch let error as AudioFileError {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        } catch let error as PresetError {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }

        InterruptSignal.install()
        let report = RenderReport(jobs: jobs, options: .init(progress: Console.stderrIsTerminal && !quiet, json: json))
        let results = RenderBatch(jobs: jobs, settings: settings, parallel: parallel, report: report).run()
        report.close()

        let signal = InterruptSignal.received.load(ordering: .relaxed)
        if signal != 0 { throw ExitCode(128 + signal) }
        for case .failure(let error)? in results { throw ExitCode(error.exitCode) }
    }

    /// Checks the options and reads everything shared by all files, before any rendering.
    private func prepare() throws -> ([RenderJob], RenderSettings, Int) {
        guard !inputs.isEmpty else { throw UsageError("render: no input files (detent render --help)") }
        if output != nil && outDir != nil { throw UsageError("use either -o or --out-dir, not both") }
        if output != nil && inputs.count > 1 {
            throw UsageError("-o names one output, but \(inputs.count) inputs were given; use --out-dir")
        }
        if let jobs, jobs < 1 { throw UsageError("--jobs \(jobs): must be at least 1") }
        if let ioThreads, !(1...2).contains(ioThreads) {
            throw UsageError("--io-threads \(ioThreads): must be 1 or 2")
        }
        if let blockFrames, !(1...1 << 20).contains(blockFrames) {
            throw UsageError("--block-frames \(blockFrames): must be 1 … \(1 << 20)")
        }
        let container = try format.map { name throws(UsageError) in
            guard let c = Container(rawValue: name.lowercased()) else {
                throw UsageError("--format '\(name)': unknown (known: \(Container.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return c
        }
        var settings = RenderSettings()
        settings.subtype = try subtype.map { name throws(UsageError) in
            guard let s = Subtype(rawValue: name.lowercased()) else {
                throw UsageError("--subtype '\(name)': unknown (known: \(Subtype.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return s
        }
        settings.startingValues = try starting.values()
        settings.dither = !noDither
        settings.overwrite = force
        settings.blockFrames = blockFrames ?? RenderSettings.defaultBlockFrames
        if let automation { settings.automation = try Automation.load(path: automation, table: settings.processor.table) }
        let jobs = try OutputPlanner.plan(inputs: inputs, output: output, outputFolder: outDir, format: container)
        settings.protectedFiles = Set(inputs.compactMap(FileIdentity.init(path:)))
        let parallel = self.jobs ?? RenderSettings.cores
        settings.ioThreads = switch ioThreads {
        case 1: .shared
        case 2: .separate
        default: .forCores(RenderSettings.cores / min(parallel, max(1, jobs.count)))
        }
        return (jobs, settings, parallel)
    }
}
