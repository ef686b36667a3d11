import RenderJobs
import ArgumentParser
import AudioEngine
import Presets
import Rig

/// What the shells complete for the values only Detent knows: installed plug-ins, the
/// presets of the processor the command line names so far, and its parameter ids.
///
/// The completion scripts (`detent --generate-completion-script bash|zsh|fish`) run `detent`
/// itself when Tab is pressed on one of these, with the words typed so far; the processor
/// is made from the `--plugin` and `--chain` among them, as the command would make it.
enum Completions {
    /// `--plugin`: `builtin` and every hostable plug-in's identifier (an LV2 URI,
    /// `ladspa:ID:LABEL`), which name it exactly and hold no spaces.
    static let plugins = CompletionKind.custom { _, _, prefix in
        pluginIdentifiers().filter { $0.hasPrefix(prefix) }
    }

    /// `--preset` and preset-name arguments: the presets of the command line's processor.
    static let presets = CompletionKind.custom { words, _, prefix in
        presetNames(words: words).filter { $0.hasPrefix(prefix) }
    }

    /// `--set`: `ID=` for each parameter of the command line's processor.
    static let assignments = CompletionKind.custom { words, _, prefix in
        parameterAssignments(words: words).filter { $0.hasPrefix(prefix) }
    }

    static func pluginIdentifiers() -> [String] {
        ["builtin"] + InstalledPlugins.catalogue.installed().entries.filter(\.isHostable).map(\.identifier)
    }

    static func presetNames(words: [String]) -> [String] {
        guard let store = try? processorOption(words).resolve().store, let rows = try? store.list() else { return [] }
        return rows.map(\.name)
    }

    static func parameterAssignments(words: [String]) -> [String] {
        guard let processor = try? processorOption(words).resolve().processor else { return [] }
        return processor.table.specs.map { $0.id + "=" }
    }

    /// The `--plugin` and `--chain` options among `words` (the others are left out, so that
    /// a word still being typed cannot make them fail to parse).
    static func processorOption(_ words: [String]) throws -> PluginOption {
        var kept: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--plugin" || word == "--chain", index + 1 < words.count {
                kept += [word, words[index + 1]]
                index += 2
                continue
            }
            if word.hasPrefix("--plugin=") || word.hasPrefix("--chain=") { kept.append(word) }
            index += 1
        }
        return try PluginOption.parse(kept)
    }
}
