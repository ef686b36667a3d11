import RenderJobs

/// `detent render`'s command line read without ArgumentParser, for the calls a script makes
/// once per file: ArgumentParser learns a command's options by reflecting over its
/// properties, which was over half of the process's own work in rendering a one-second file.
/// Only a line made wholly of the options below, each once (the repeatable ones aside), with
/// well-formed values, is read here; anything else (help, a typo, a missing value, `--`) goes
/// to ArgumentParser, which says what is wrong in its words, so the two never disagree on a
/// line this one reads (`PlainRenderArgumentsTests` holds them to it).
enum PlainRenderArguments {
    /// What an option's value is.
    enum Kind {
        case text, texts, count, number, seed, flag
        /// A value taken whatever it looks like (`--normalize -23`, `--shard -1/4`).
        case anything
    }

    /// `RenderCommand`'s options by name, as it declares them (the hidden ones a script or a
    /// benchmark passes included; `--render-worker` left to ArgumentParser), and what their
    /// values are. ``set(_:text:number:count:seed:in:)`` puts each where it goes: a switch
    /// rather than key paths, whose instantiation costs more at start-up than the reading.
    static let kinds: [String: Kind] = [
        "-o": .text, "--output": .text, "--out-dir": .text, "--chain": .text, "--graph": .text, "--preset": .text,
        "--automation": .text, "--midi": .text, "--midi-out": .text, "--format": .text, "--subtype": .text,
        "--dither": .text, "--measure": .text, "--tail": .text, "--manifest": .text, "--write-manifest": .text,
        "--plugin": .texts, "--set": .texts, "--sidechain": .texts, "--input": .texts, "--vary": .texts,
        "--rate": .count, "--channels": .count, "--bitrate": .count, "--compression": .count, "--jobs": .count,
        "--block-frames": .count, "--block": .count, "--control-interval": .count, "--io-threads": .count,
        "--variants": .count, "--bpm": .number, "--quality": .number, "--seed": .seed,
        "--no-dither": .flag, "--loudness": .flag, "--no-metadata": .flag, "--in-process": .flag, "--force": .flag,
        "--quiet": .flag, "--json": .flag, "--skip-existing": .flag, "--normalize": .anything, "--shard": .anything,
    ]

    /// Puts the value of the option `name` (read as its ``Kind`` says) into `options`.
    static func set(_ name: String, text: String, number: Double?, count: Int?, seed: UInt64?, in options: inout RenderOptions) {
        switch name {
        case "-o", "--output": options.output = text
        case "--out-dir": options.outDir = text
        case "--chain": options.plugin.chain = text
        case "--graph": options.plugin.graph = text
        case "--preset": options.starting.preset = text
        case "--automation": options.automation = text
        case "--midi": options.midi = text
        case "--midi-out": options.midiOut = text
        case "--format": options.format = text
        case "--subtype": options.subtype = text
        case "--dither": options.encoder.dither = text
        case "--measure": options.measures = text
        case "--tail": options.tail = text
        case "--manifest": options.batch.manifest = text
        case "--write-manifest": options.batch.writeManifest = text
        case "--plugin": options.plugin.plugins.append(text)
        case "--set": options.starting.sets.append(text)
        case "--sidechain": options.sidechains.append(text)
        case "--input": options.namedInputs.append(text)
        case "--vary": options.batch.variations.append(text)
        case "--rate": options.rate = count
        case "--channels": options.channels = count
        case "--bitrate": options.encoder.bitrate = count
        case "--compression": options.encoder.compression = count
        case "--jobs": options.jobs = count
        case "--block-frames": options.blockFrames = count
        case "--block": options.kernelFrames = count
        case "--control-interval": options.controlInterval = count
        case "--io-threads": options.ioThreads = count
        case "--variants": options.batch.variants = count
        case "--bpm": options.bpm = number
        case "--quality": options.encoder.quality = number
        case "--seed": options.batch.seed = seed
        case "--no-dither": options.encoder.noDither = true
        case "--loudness": options.loudness = true
        case "--no-metadata": options.noMetadata = true
        case "--in-process": options.inProcess = true
        case "--force": options.force = true
        case "--quiet": options.quiet = true
        case "--json": options.json = true
        case "--skip-existing": options.batch.skipExisting = true
        case "--normalize": options.normalize = text
        case "--shard": options.batch.shard = text
        default: break
        }
    }

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
            guard let kind = kinds[name] else { return nil }
            // A single value named twice (`-o a --output b`) is ArgumentParser's to judge.
            if kind != .texts, !seen.insert(name == "-o" ? "--output" : name).inserted { return nil }
            if kind == .flag {
                guard attached == nil else { return nil }
                set(name, text: "", number: nil, count: nil, seed: nil, in: &options)
                continue
            }
            guard let value = attached ?? words.popFirst() else { return nil }
            if kind != .anything && value.hasPrefix("-") && value != "-" { return nil }
            var number: Double?, count: Int?, seed: UInt64?
            switch kind {
            case .count:
                guard let n = Int(value) else { return nil }
                count = n
            case .number:
                guard let x = Double(value) else { return nil }
                number = x
            case .seed:
                guard let s = UInt64(value) else { return nil }
                seed = s
            default: break
            }
            set(name, text: value, number: number, count: count, seed: seed, in: &options)
        }
        return options
    }
}
