import RenderJobs

/// `detent render`'s command line read without ArgumentParser, for the calls a script makes
/// once per file: ArgumentParser learns a command's options by reflecting over its
/// properties, which was over half of the process's own work in rendering a one-second file.
/// Only a line made wholly of the options below, each once (the repeatable ones aside), with
/// well-formed values, is read here; anything else (help, a typo, a missing value, `--`) goes
/// to ArgumentParser, which says what is wrong in its words, so the two never disagree on a
/// line this one reads (`PlainRenderArgumentsTests` holds them to it). The options are
/// ``RenderOption``'s table, which every reader of render options shares.
enum PlainRenderArguments {
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
            // `--render-worker` is ArgumentParser's, as is every name the table does not hold.
            guard let option = RenderOption.byFlag[name] else { return nil }
            // A single value named twice (`-o a --output b`) is ArgumentParser's to judge.
            if !option.kind.repeats, !seen.insert(option.name).inserted { return nil }
            if option.kind == .flag {
                guard attached == nil else { return nil }
                option.apply(&options, .flag(true))
                continue
            }
            guard let text = attached ?? words.popFirst(), option.anyValue || !text.hasPrefix("-") || text == "-",
                  let value = value(text, for: option.kind) else { return nil }
            option.apply(&options, value)
        }
        return options
    }

    /// `text` as a value of `kind`; nil when it is not one (ArgumentParser then says why).
    private static func value(_ text: String, for kind: RenderOption.Kind) -> RenderOption.Value? {
        switch kind {
        case .text, .path, .texts, .namedPaths: .text(text)
        case .number: Double(text).map { .number($0) }
        case .whole: Int(text).map { .whole($0) }
        case .seed: UInt64(text).map { .seed($0) }
        case .flag: nil
        }
    }
}
