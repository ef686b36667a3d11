import ArgumentParser
import RenderJobs

/// `detent render`'s options for batches at scale: a job manifest, randomised variants, a
/// shard of the job list, resuming (``BatchChoice``, which checks them). See docs/batches.md.
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

    /// What these options choose.
    var choice: BatchChoice {
        var choice = BatchChoice()
        choice.manifest = manifest
        choice.shard = shard
        choice.skipExisting = skipExisting
        choice.variations = variations
        choice.variants = variants
        choice.seed = seed
        choice.writeManifest = writeManifest
        return choice
    }
}
