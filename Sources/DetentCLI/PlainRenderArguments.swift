import RenderJobs

/// `detent render`'s command line read without ArgumentParser, for the calls a script makes
/// once per file: ArgumentParser learns a command's options by reflecting over its
/// properties, which is more than half of what rendering a one-second file costs from a cold
/// start. Only a line made wholly of the options below, each once (the repeatable ones aside),
/// with well-formed values, is read here; anything else (help, a typo, a missing value, `--`)
/// goes to ArgumentParser, which says what is wrong in its words, so the two never disagree on
/// a line this one reads (`PlainRenderArgumentsTests` holds them to it).
enum PlainRenderArguments {
    /// Where an option's value goes.
    enum Target {
        case text(WritableKeyPath<RenderOptions, String?>)
        case texts(WritableKeyPath<RenderOptions, [String]>)
        case count(WritableKeyPath<RenderOptions, Int?>)
        case number(WritableKeyPath<RenderOptions, Double?>)
        case seed(WritableKeyPath<RenderOptions, UInt64?>)
        case flag(WritableKeyPath<RenderOptions, Bool>)
        /// A value taken whatever it looks like (`--normalize -23`, `--shard -1/4`).
        case anything(WritableKeyPath<RenderOptions, String?>)
    }

    /// `RenderCommand`'s options by name, as it declares them (the hidden ones a script or a
    /// benchmark passes included; `--render-worker` left to ArgumentParser).
    static var targets: [String: Target] { [
        "-o": .text(\.output), "--output": .text(\.output), "--out-dir": .text(\.outDir),
        "--plugin": .texts(\.plugin.plugins), "--chain": .text(\.plugin.chain), "--graph": .text(\.plugin.graph),
        "--preset": .text(\.starting.preset), "--set": .texts(\.starting.sets),
        "--automation": .text(\.automation), "--midi": .text(\.midi), "--midi-out": .text(\.midiOut),
        "--sidechain": .texts(\.sidechains), "--input": .texts(\.namedInputs),
        "--rate": .count(\.rate), "--channels": .count(\.channels), "--bpm": .number(\.bpm),
        "--format": .text(\.format), "--subtype": .text(\.subtype),
        "--dither": .text(\.encoder.dither), "--no-dither": .flag(\.encoder.noDither),
        "--quality": .number(\.encoder.quality), "--bitrate": .count(\.encoder.bitrate),
        "--compression": .count(\.encoder.compression),
        "--normalize": .anything(\.normalize), "--loudness": .flag(\.loudness), "--measure": .text(\.measures),
        "--jobs": .count(\.jobs), "--block-frames": .count(\.blockFrames), "--tail": .text(\.tail),
        "--block": .count(\.kernelFrames), "--control-interval": .count(\.controlInterval),
        "--io-threads": .count(\.ioThreads), "--no-metadata": .flag(\.noMetadata), "--in-process": .flag(\.inProcess),
        "--force": .flag(\.force), "--quiet": .flag(\.quiet), "--json": .flag(\.json),
        "--manifest": .text(\.batch.manifest), "--shard": .anything(\.batch.shard),
        "--skip-existing": .flag(\.batch.skipExisting), "--vary": .texts(\.batch.variations),
        "--variants": .count(\.batch.variants), "--seed": .seed(\.batch.seed),
        "--write-manifest": .text(\.batch.writeManifest),
    ] }

    /// The options of `arguments` (the words after the program's name) when they are a plain
    /// `render` line; nil for any other line.
    static func options(from arguments: [String]) -> RenderOptions? {
        // After `--` every word is an input, even where an option took `--` as its value.
        guard arguments.first == "render", !arguments.contains("--") else { return nil }
        let targets = self.targets
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
            guard let target = targets[name] else { return nil }
            if case .flag(let path) = target {
                guard attached == nil, seen.insert(name).inserted else { return nil }
                options[keyPath: path] = true
                continue
            }
            guard let value = attached ?? words.popFirst() else { return nil }
            switch target {
            case .anything:
                break
            default:
                if value.hasPrefix("-") && value != "-" { return nil }
            }
            switch target {
            case .texts(let path):
                options[keyPath: path].append(value)
                continue
            default:
                // A single value named twice (`-o a --output b`) is ArgumentParser's to judge.
                let key = name == "-o" ? "--output" : name
                guard seen.insert(key).inserted else { return nil }
            }
            switch target {
            case .text(let path), .anything(let path): options[keyPath: path] = value
            case .count(let path):
                guard let n = Int(value) else { return nil }
                options[keyPath: path] = n
            case .number(let path):
                guard let x = Double(value) else { return nil }
                options[keyPath: path] = x
            case .seed(let path):
                guard let s = UInt64(value) else { return nil }
                options[keyPath: path] = s
            case .texts, .flag: break
            }
        }
        return options
    }
}
