import OfflineRender
import Parameters
import Platform
import Presets
import TextFormats
import Rig

/// One job of a batch as planned: where it comes from, what it renders, and whether it
/// renders, is skipped or has already failed.
package struct BatchEntry: Sendable {
    /// The manifest line it comes from, for `--json` (nil for a file on the command line).
    package var line: (manifest: String, number: Int)?
    /// The files; nil for a manifest line that names none it could be read for.
    package var job: RenderJob?
    /// Which variant of its job this is, and the values drawn for it.
    package var variant: Variant?
    package var action: Action

    package enum Action: Sendable {
        case render(RenderSettings)
        /// `--skip-existing` found the output, or another run rendering it.
        case skip(SkipReason)
        case fail(CommandFailure)
    }

    package struct Variant: Sendable {
        /// From 0, as in the output's name (`take.v003.wav` is variant 3).
        package let number: Int
        /// The drawn values, in `--vary`'s order.
        package let values: [(id: String, value: Double)]
    }
}

/// What `detent render` will do, decided before anything renders: the jobs of the command
/// line or of a manifest, each expanded into its variants, this shard's part of them, and
/// which of those are skipped or already failed.
///
/// The whole list is planned in the same order in every run (and every shard), so a job's
/// place, its shard and its variants' values never depend on what else happened; only the
/// jobs of this shard (or all, to write a manifest) are resolved.
package struct BatchPlan {
    /// This shard's jobs, in the order of the whole list.
    package var entries: [BatchEntry]
    /// Renders at once.
    package var parallel: Int

    /// The jobs that render (not skipped, not failed already).
    package var renders: Int {
        entries.filter { if case .render = $0.action { true } else { false } }.count
    }

    /// A job before its variants: its options (the command line's, or a manifest line's over
    /// them) and its files, or why it cannot be one.
    private struct Base {
        var line: (manifest: String, number: Int)?
        var options: RenderOptions
        var job: Result<RenderJob, CommandFailure>
    }

    /// The plan of `command`.
    ///
    /// - Throws: ``CommandFailure`` for a problem that concerns every job (a bad option or file on
    ///   the command line, an unreadable manifest): nothing renders then.
    package init(_ command: RenderOptions) throws {
        let batch = command.batch
        let shard = try batch.shardSetting
        let variations = try batch.variationSettings
        let perJob = batch.variants ?? 1
        let cache = JobSettings()
        let writing = batch.writeManifest
        var planner = Planner(batch: batch, shard: shard, variations: variations, perJob: perJob, cache: cache,
                              paths: writing.map { ManifestPaths(folder: PathString.folder(of: $0)) })

        if let path = batch.manifest {
            if path != "-" { planner.protected.protect(path, as: .manifest) }
            let manifest = RenderManifest(path: path)
            try manifest.read { place, line, members in
                // A job none of whose variants is this shard's is passed over unread.
                guard writing != nil || shard.containsAny(place * perJob..<(place + 1) * perJob) else { return }
                planner.plan(Self.base(line, members(), of: manifest, command: command), at: place)
            }
        } else {
            // One set of options for every file: a problem in it is every file's, told once
            // before anything is planned, as a render of one file tells it.
            let settings = try cache.settings(for: command)
            for variation in variations { _ = try variation.resolved(in: settings.processor.table) }
            let inputs = command.inputs.map { $0 == "-" ? "/dev/stdin" : $0 }
            let jobs = try OutputPlanner.plan(inputs: inputs, output: command.output == "-" ? "/dev/stdout" : command.output,
                                              outputFolder: command.outDir, format: command.container)
            for (place, job) in jobs.enumerated() { planner.plan(Base(line: nil, options: command, job: .success(job)), at: place) }
        }
        entries = planner.entries
        for i in entries.indices {
            if case .render(var settings) = entries[i].action {
                settings.protectedFiles = planner.protected
                entries[i].action = .render(settings)
            }
        }
        if let writing {
            try Self.checkManifestPath(writing, inputs: planner.protected, outputs: planner.claimed, force: command.force)
            try Self.write(planner.written, to: writing)
        }
        if batch.skipExisting {
            for i in entries.indices {
                if case .render = entries[i].action, let job = entries[i].job, PathString.exists(job.output) {
                    entries[i].action = .skip(.exists)
                }
            }
        }

        parallel = command.jobs ?? RenderSettings.cores
        let renders = entries.filter { if case .render = $0.action { true } else { false } }.count
        let threads: IOThreads = switch command.ioThreads {
        case 0: .inline
        case 1: .shared
        case 2: .separate
        default: .forCores(RenderSettings.cores / min(parallel, max(1, renders)))
        }
        for i in entries.indices {
            if case .render(var settings) = entries[i].action {
                settings.ioThreads = threads
                entries[i].action = .render(settings)
            }
        }
        prepareFolders(creating: batch.isBatch, skippingHeld: batch.skipExisting)
    }

    /// Plans the jobs it is given, one after another in the whole list's order: each job's
    /// variants, this shard's entries, the outputs claimed so far (two jobs that would write one
    /// file: the later one fails), the inputs no output may replace, and the lines of
    /// `--write-manifest`.
    ///
    /// It sees the jobs it is given: every job without `--shard` or with `--write-manifest`;
    /// with `--shard` alone, this shard's jobs, since the other shards' lines are not read.
    private struct Planner {
        let batch: BatchChoice
        let shard: RenderShard
        let variations: [ParameterVariation]
        let perJob: Int
        let cache: JobSettings
        /// How a written manifest names paths (nil when none is written).
        let paths: ManifestPaths?
        var entries: [BatchEntry] = []
        var claimed: [String: String] = [:]
        var protected: [FileIdentity: ReadFileRole] = [:]
        var written: [String] = []
        var variationsByProcessor: [String: Result<[ParameterVariation.Resolved], CommandFailure>] = [:]

        init(batch: BatchChoice, shard: RenderShard, variations: [ParameterVariation], perJob: Int, cache: JobSettings,
             paths: ManifestPaths?) {
            self.batch = batch
            self.shard = shard
            self.variations = variations
            self.perJob = perJob
            self.cache = cache
            self.paths = paths
        }

        mutating func plan(_ base: Base, at job: Int) {
            if let input = try? base.job.get().input { protected.protect(input, as: .input) }
            for file in base.options.filesNamed { protected.protect(file.path, as: file.role) }
            let width = max(3, String(perJob - 1).count)
            for number in 0..<perJob {
                let place = job * perJob + number
                let mine = shard.contains(place)
                var entry = BatchEntry(line: base.line, job: try? base.job.get(), variant: nil, action: .skip(.exists))
                if batch.variants != nil, let job = entry.job {
                    entry.job?.output = BatchPlan.variantPath(job.output, number: number, width: width)
                }
                var collision: CommandFailure?
                if let job = entry.job {
                    let key = PathString.canonical(job.output)
                    if let first = claimed[key] {
                        collision = CommandFailure(AudioFileError.outputCollision(path: job.output, first: first, second: job.input))
                    } else {
                        claimed[key] = job.input
                    }
                }
                guard mine || batch.writeManifest != nil else { continue }
                entry.action = BatchPlan.action(base, entry: &entry, collision: collision, variations: variations, seed: batch.seed ?? 0,
                                                place: job, variant: batch.variants == nil ? nil : number,
                                                cache: cache, resolved: &variationsByProcessor)
                if case .render(let settings) = entry.action {
                    for file in settings.filesRead { protected.protect(file.path, as: file.role) }
                }
                if case .render = entry.action, let paths, let job = entry.job {
                    written.append(ManifestFields.line(input: job.input, output: job.output, options: base.options,
                                                       values: entry.variant?.values ?? [], paths: paths))
                }
                if mine { entries.append(entry) }
            }
        }
    }

    /// A manifest line as a job before its variants.
    private static func base(_ line: Int, _ members: Result<[JSONMember], CommandFailure>, of manifest: RenderManifest,
                             command: RenderOptions) -> Base {
        let place = (manifest: manifest.name, number: line)
        do {
            let job = try ManifestFields.apply(try members.get(), to: command, manifest: manifest, line: line)
            do {
                try job.options.checkFileOptions()
                try job.options.encoder.validate()
                let planned = try OutputPlanner.plan(inputs: [job.input], output: job.output,
                                                     outputFolder: job.output == nil ? command.outDir : nil,
                                                     format: job.options.container)
                return Base(line: place, options: job.options, job: .success(planned[0]))
            } catch {
                return Base(line: place, options: job.options, job: .failure(CommandFailure(error, manifest: manifest.name, line: line)))
            }
        } catch {
            return Base(line: place, options: command, job: .failure(error))
        }
    }

    /// What becomes of one job of the list: its settings (with its variant's values drawn),
    /// or why it fails.
    private static func action(
        _ base: Base, entry: inout BatchEntry, collision: CommandFailure?, variations: [ParameterVariation], seed: UInt64,
        place: Int, variant: Int?, cache: JobSettings,
        resolved: inout [String: Result<[ParameterVariation.Resolved], CommandFailure>]
    ) -> BatchEntry.Action {
        if case .failure(let failure) = base.job { return .fail(failure) }
        if let collision { return .fail(collision) }
        do {
            var settings = try cache.settings(for: base.options)
            if let variant {
                let key = settings.processor.identifier
                let bound: Result<[ParameterVariation.Resolved], CommandFailure>
                if let known = resolved[key] {
                    bound = known
                } else {
                    var list: [ParameterVariation.Resolved] = []
                    do {
                        for variation in variations { list.append(try variation.resolved(in: settings.processor.table)) }
                        bound = .success(list)
                    } catch {
                        bound = .failure(CommandFailure(error))
                    }
                    resolved[key] = bound
                }
                var random = SplitMix64(seed: seed, job: place, variant: variant)
                var values: [(id: String, value: Double)] = []
                for variation in try bound.get() {
                    let value = variation.value(&random)
                    settings.startingValues[variation.index] = value
                    values.append((variation.id, value))
                }
                entry.variant = BatchEntry.Variant(number: variant, values: values)
            }
            return .render(settings)
        } catch {
            if let line = base.line { return .fail(CommandFailure(error, manifest: line.manifest, line: line.number)) }
            return .fail(CommandFailure(error))
        }
    }

    /// `take.wav` → `take.v003.wav` (`take` → `take.v003`), the number at least `width` digits.
    package static func variantPath(_ output: String, number: Int, width: Int) -> String {
        let digits = String(number)
        let tag = ".v" + String(repeating: "0", count: max(0, width - digits.count)) + digits
        let name = PathString.name(of: output)
        let (stem, ext) = PathString.split(name)
        return PathString.sibling(of: output, named: stem + tag + (ext.map { "." + $0 } ?? ""))
    }

    /// Refuses a manifest path that would destroy what the batch reads or writes, or anything
    /// already there without `--force`, as `-o` does: a file the batch reads (an input, a key,
    /// a graph, the manifest itself…; `inputs`, by identity, so any spelling of the path is
    /// caught), an output of one of its jobs, a folder, an existing file or symbolic link. A
    /// device or FIFO is written into, never replaced.
    package static func checkManifestPath(_ path: String, inputs: [FileIdentity: ReadFileRole], outputs: [String: String],
                                  force: Bool) throws(CommandFailure) {
        func refuse(_ reason: String, _ status: Int32 = 64) -> CommandFailure {
            CommandFailure("--write-manifest \(path): \(reason)", exitCode: status)
        }
        if let input = outputs[PathString.canonical(path)] { throw refuse("is where the render of \(input) goes") }
        if let existing = FileIdentity(path: path), let role = inputs[existing] {
            throw refuse(role == .input ? "is an input of this batch" : "is \(role.rawValue) this render reads")
        }
        if PathString.isFolder(path) { throw refuse("is a folder", 74) }
        if PathString.isSpecial(path) { return }
        if PathString.exists(path) && !force { throw refuse("already exists (use --force to overwrite it)") }
    }

    /// Writes the manifest of `lines` at `path`, whole or not at all; into a device or FIFO,
    /// as it is written (nothing there to replace).
    private static func write(_ lines: [String], to path: String) throws(CommandFailure) {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        if PathString.isSpecial(path) {
            do {
                let fd = try DescriptorIO.open(path, .writeOnly)
                defer { try? DescriptorIO.close(fd) }
                try DescriptorIO.writeAll(fd, bytes)
            } catch {
                throw CommandFailure("--write-manifest \(path): \(error.errno)", exitCode: 74)
            }
            return
        }
        do {
            try AtomicFileWriter().write(bytes, to: path, replacing: true)
        } catch {
            throw CommandFailure("--write-manifest \(path): \(error.problem.description)", exitCode: 74)
        }
    }

    /// Removes what killed runs left beside this run's outputs (``AbandonedOutputs``), once per
    /// folder — for every render, a single file's too, and for the outputs `--skip-existing`
    /// skips (a run killed between linking its output into place and removing the temporary
    /// name leaves both) — and, for a batch (`creating`), makes the folders it renders into.
    /// With `skippingHeld` (`--skip-existing`), a job whose output another running render is
    /// writing (a requeued shard beside the one still running) is skipped.
    private mutating func prepareFolders(creating: Bool, skippingHeld: Bool) {
        var outputs: [String: Set<String>] = [:]
        var rendering: Set<String> = []
        for entry in entries {
            guard let job = entry.job, !PathString.isSpecial(job.output) else { continue }
            let folder = PathString.folder(of: job.output)
            switch entry.action {
            case .render: rendering.insert(folder)
            case .skip: break
            case .fail: continue
            }
            outputs[folder, default: []].insert(PathString.name(of: job.output))
        }
        var held: [String: Set<String>] = [:]
        for (folder, names) in outputs {
            if creating && rendering.contains(folder) { try? OutputPlanner.createFolder(folder) }
            held[folder] = AbandonedOutputs.remove(in: folder, for: names)
        }
        guard skippingHeld else { return }
        for i in entries.indices {
            if case .render = entries[i].action, let job = entries[i].job,
               held[PathString.folder(of: job.output)]?.contains(PathString.name(of: job.output)) == true {
                entries[i].action = .skip(.renderingElsewhere)
            }
        }
    }
}
