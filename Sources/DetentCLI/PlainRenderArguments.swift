import RenderJobs

/// `detent render`'s command line read without ArgumentParser, for the calls a script makes
/// once per file: ArgumentParser learns a command's options by reflecting over its
/// properties, which was over half of the process's own work in rendering a one-second file.
/// Only a line made wholly of the options below, each once (the repeatable ones aside), with
/// well-formed values, is read here; anything else (help, a typo, a missing value, `--`) goes
/// to ArgumentParser, which says what is wrong in its words, so the two never disagree on a
/// line this one reads (`PlainRenderArgumentsTests` holds them to it).
enum PlainRenderArguments {
    /// How an option takes its value.
    enum Kind {
        /// One value, given once.
        case single
        /// One value each time, repeatable (`--set`, `--plugin`).
        case repeatable
        /// No value.
        case flag
        /// One value taken whatever it looks like (`--normalize -23`, `--shard -1/4`).
        case anything
    }

    /// One option: how it takes its value, and where the value goes (false when the value is
    /// not one of its type).
    struct Option: Sendable {
        let kind: Kind
        let apply: @Sendable (inout RenderOptions, String) -> Bool

        static func text(_ kind: Kind = .single, _ set: @escaping @Sendable (inout RenderOptions, String) -> Void) -> Option {
            Option(kind: kind) { options, value in set(&options, value); return true }
        }
        static func count(_ set: @escaping @Sendable (inout RenderOptions, Int) -> Void) -> Option {
            Option(kind: .single) { options, value in Int(value).map { set(&options, $0) } != nil }
        }
        static func number(_ set: @escaping @Sendable (inout RenderOptions, Double) -> Void) -> Option {
            Option(kind: .single) { options, value in Double(value).map { set(&options, $0) } != nil }
        }
        static func seed(_ set: @escaping @Sendable (inout RenderOptions, UInt64) -> Void) -> Option {
            Option(kind: .single) { options, value in UInt64(value).map { set(&options, $0) } != nil }
        }
        static func flag(_ set: @escaping @Sendable (inout RenderOptions) -> Void) -> Option {
            Option(kind: .flag) { options, _ in set(&options); return true }
        }
    }

    /// `RenderCommand`'s options by name, as it declares them (the hidden ones a script or a
    /// benchmark passes included; `--render-worker` left to ArgumentParser). Closures rather
    /// than key paths, whose instantiation costs more at start-up than the reading.
    static let options: [String: Option] = [
        "-o": .text { $0.output = $1 }, "--output": .text { $0.output = $1 }, "--out-dir": .text { $0.outDir = $1 },
        "--chain": .text { $0.plugin.chain = $1 }, "--graph": .text { $0.plugin.graph = $1 },
        "--preset": .text { $0.starting.preset = $1 }, "--automation": .text { $0.automation = $1 },
        "--midi": .text { $0.midi = $1 }, "--midi-out": .text { $0.midiOut = $1 }, "--format": .text { $0.format = $1 },
        "--subtype": .text { $0.subtype = $1 }, "--dither": .text { $0.encoder.dither = $1 },
        "--measure": .text { $0.measures = $1 }, "--tail": .text { $0.tail = $1 },
        "--manifest": .text { $0.batch.manifest = $1 }, "--write-manifest": .text { $0.batch.writeManifest = $1 },
        "--plugin": .text(.repeatable) { $0.plugin.plugins.append($1) },
        "--set": .text(.repeatable) { $0.starting.sets.append($1) },
        "--sidechain": .text(.repeatable) { $0.sidechains.append($1) },
        "--input": .text(.repeatable) { $0.namedInputs.append($1) },
        "--vary": .text(.repeatable) { $0.batch.variations.append($1) },
        "--normalize": .text(.anything) { $0.normalize = $1 }, "--shard": .text(.anything) { $0.batch.shard = $1 },
        "--rate": .count { $0.rate = $1 }, "--channels": .count { $0.channels = $1 },
        "--bitrate": .count { $0.encoder.bitrate = $1 }, "--compression": .count { $0.encoder.compression = $1 },
        "--jobs": .count { $0.jobs = $1 }, "--block-frames": .count { $0.blockFrames = $1 },
        "--block": .count { $0.kernelFrames = $1 }, "--control-interval": .count { $0.controlInterval = $1 },
        "--io-threads": .count { $0.ioThreads = $1 }, "--variants": .count { $0.batch.variants = $1 },
        "--bpm": .number { $0.bpm = $1 }, "--quality": .number { $0.encoder.quality = $1 },
        "--seed": .seed { $0.batch.seed = $1 },
        "--no-dither": .flag { $0.encoder.noDither = true }, "--loudness": .flag { $0.loudness = true },
        "--no-metadata": .flag { $0.noMetadata = true }, "--in-process": .flag { $0.inProcess = true },
        "--force": .flag { $0.force = true }, "--quiet": .flag { $0.quiet = true }, "--json": .flag { $0.json = true },
        "--skip-existing": .flag { $0.batch.skipExisting = true },
    ]

    /// The options of `arguments` (the words after the program's name) when they are a plain
    /// `render` line; nil for any other line.
    static func options(from arguments: [String]) -> RenderOptions? {
        // After `--` every word is an input, even where an option took `--` as its value.
        guard arguments.first == "render", !arguments.contains("--") else { return nil }
        var options = RenderOptions()
        var seen: Set<String> = []
        var words = arguments.dropFirst()[...]
        while let word = words.popFirst() {
            guard word.hasPrefix("-"), word != "-" else {
                options.inputs.append(word)
                continue
            }
            // `--name=value`, as ArgumentParser splits it at the first `=`.
            var name = word, attached: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                attached = String(word[word.index(after: equals)...])
                if attached!.isEmpty { return nil }
            }
            guard let option = self.options[name] else { return nil }
            // A single value named twice (`-o a --output b`) is ArgumentParser's to judge.
            if option.kind != .repeatable, !seen.insert(name == "-o" ? "--output" : name).inserted { return nil }
            if option.kind == .flag {
                guard attached == nil else { return nil }
                _ = option.apply(&options, "")
                continue
            }
            guard let value = attached ?? words.popFirst(),
                  option.kind == .anything || !value.hasPrefix("-") || value == "-",
                  option.apply(&options, value) else { return nil }
        }
        return options
    }
}
