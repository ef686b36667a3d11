import ArgumentParser
import AudioEngine
import Parameters
import Presets
import RenderJobs
import Rig

/// `--preset` and `--set`, as `detent render` and `detent live` take them (``StartingChoice``).
struct StartingValueOptions: ParsableArguments {
    /// `--preset`'s help, also for `detent panel` (which takes no `--set`).
    static let presetHelp = ArgumentHelp(
        "Start from a preset, by name or file (default: the Default preset).", valueName: "name|path")

    @Option(help: presetHelp, completion: Completions.presets)
    var preset: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Set a parameter over the preset, e.g. cutoff=1.2k, gain=-6dB, or in a plug-in's own words ratio=4:1 (repeatable).", valueName: "id=value"),
            completion: Completions.assignments)
    var sets: [String] = []

    /// What these options choose.
    var choice: StartingChoice { StartingChoice(preset: preset, sets: sets) }

    /// The values to start from; see ``StartingChoice/values(store:chainFile:processor:)``:
    /// `plugin`'s `--chain` file is the preset when none is named, and a `--graph` file's
    /// values come before the `--set`s.
    func values(store: PresetStore = .standard(), plugin: PluginOption, processor: Processor? = nil) throws -> [ParameterIndex: Double] {
        try StartingChoice(preset: preset, sets: plugin.choice.startingSets + sets)
            .values(store: store, chainFile: plugin.startingPreset, processor: processor)
    }
}
