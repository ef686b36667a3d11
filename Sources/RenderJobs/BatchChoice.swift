import Rig

/// A render's settings for batches at scale: a job manifest, randomised variants, a shard of
/// the job list, resuming (`--manifest`, `--vary`, `--variants`, `--seed`, `--shard`,
/// `--skip-existing`, `--write-manifest`). See docs/batches.md.
package struct BatchChoice: Sendable, Equatable {
    package var manifest: String?
    package var shard: String?
    package var skipExisting = false
    package var variations: [String] = []
    package var variants: Int?
    package var seed: UInt64?
    package var writeManifest: String?

    package init() {}

    /// True when any of these options is given: the render then reports its batch in a
    /// final count line and cleans up after killed runs.
    package var isBatch: Bool {
        manifest != nil || shard != nil || skipExisting || variants != nil || writeManifest != nil
    }

    /// `--shard`, or the whole list.
    package var shardSetting: RenderShard {
        get throws(UsageError) { try shard.map { text throws(UsageError) in try RenderShard(parsing: text) } ?? .all }
    }

    /// `--vary`, each read (not yet bound to a processor's table).
    package var variationSettings: [ParameterVariation] {
        get throws(UsageError) {
            var all: [ParameterVariation] = []
            for text in variations { all.append(try ParameterVariation(parsing: text)) }
            return all
        }
    }

    /// The usage errors these options can make alone.
    package func check() throws(UsageError) {
        _ = try shardSetting
        _ = try variationSettings
        if let variants, !(1...1_000_000).contains(variants) {
            throw UsageError("--variants \(variants): must be 1 … 1000000")
        }
        if variants != nil && variations.isEmpty { throw UsageError("--variants needs at least one --vary ID=LOW..HIGH") }
        if variants == nil && !variations.isEmpty { throw UsageError("--vary needs --variants N (how many to render)") }
        if variants == nil && seed != nil { throw UsageError("--seed is for --variants") }
        if writeManifest == "-" { throw UsageError("--write-manifest needs a file (stdout carries --json)") }
    }
}
