import ArgumentParser

/// `detent render`'s options for batches at scale: a job manifest, randomised variants, a
/// shard of the job list, resuming. See docs/batches.md.
struct BatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Render the jobs of a JSON Lines file (- for stdin): one object per line with input, output and any per-file option by its long name (plugin, chain, preset, set, values, automation, midi, tail, format, …); relative paths are the manifest's folder's. A bad line fails alone, named by its number.",
        valueName: "file"), completion: .file(extensions: ["jsonl", "json"]))
    var manifest: String?

    // Taken whatever it looks like (`--shard -1/4` is a value, told as a bad shard, not an
    // option), as `--normalize` is.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Render only shard K (0 … N-1) of N: job i is shard i % N's, so N runs (a Slurm array: $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT) render every job once.",
        valueName: "k/n"))
    var shard: String?

    @Flag(name: .customLong("skip-existing"), help: ArgumentHelp(
        "Skip jobs whose output exists (an output appears only when complete), and remove the unfinished files of killed runs: a stopped batch started again renders what is missing."))
    var skipExisting = false

    @Option(name: .customLong("vary"), help: ArgumentHelp(
        "With --variants: draw this parameter anew for each variant, from a range (log-uniform on a logarithmic taper; a stepped parameter's steps) or a list (repeatable).",
        valueName: "id=low..high|id=a,b,…"))
    var variations: [String] = []

    @Option(help: ArgumentHelp(
        "Render N randomised variants of each job, named <stem>.v000.<ext> …; their values are in --json and --write-manifest.",
        valueName: "n"))
    var variants: Int?

    @Option(help: ArgumentHelp("The seed of --vary's draws (default 0): the same seed renders the same variants, byte for byte.",
                               valueName: "s"))
    var seed: UInt64?

    @Option(name: .customLong("write-manifest"), help: ArgumentHelp(
        "Also write the batch's jobs (every shard's, variants with their values) as a manifest that renders each file again exactly.",
        valueName: "file"), completion: .file(extensions: ["jsonl"]))
    var writeManifest: String?

    /// True when any of these options is given: the render then reports its batch in a
    /// final count line and cleans up after killed runs.
    var isBatch: Bool {
        manifest != nil || shard != nil || skipExisting || variants != nil || writeManifest != nil
    }

    /// `--shard`, or the whole list.
    var shardSetting: RenderShard {
        get throws(ValidationError) { try shard.map { text throws(ValidationError) in try RenderShard(parsing: text) } ?? .all }
    }

    /// `--vary`, each read (not yet bound to a processor's table).
    var variationSettings: [ParameterVariation] {
        get throws(ValidationError) {
            var all: [ParameterVariation] = []
            for text in variations { all.append(try ParameterVariation(parsing: text)) }
            return all
        }
    }

    /// The usage errors these options can make alone.
    func check() throws(ValidationError) {
        _ = try shardSetting
        _ = try variationSettings
        if let variants, !(1...1_000_000).contains(variants) {
            throw ValidationError("--variants \(variants): must be 1 … 1000000")
        }
        if variants != nil && variations.isEmpty { throw ValidationError("--variants needs at least one --vary ID=LOW..HIGH") }
        if variants == nil && !variations.isEmpty { throw ValidationError("--vary needs --variants N (how many to render)") }
        if variants == nil && seed != nil { throw ValidationError("--seed is for --variants") }
        if writeManifest == "-" { throw ValidationError("--write-manifest needs a file (stdout carries --json)") }
    }
}
