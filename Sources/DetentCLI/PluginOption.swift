import ArgumentParser
import AudioEngine
import Presets
import PluginFormats
import RenderJobs
import Rig

/// `--plugin URI|NAME|LABEL|ladspa:ID|FILE.so:LABEL|builtin` (repeatable) and `--chain FILE`: the processor a command hosts —
/// the built-in lowpass + gain when neither is given, one processor, or several in series as
/// a chain whose parameters are `SLOT.ID` (``PluginChoice``).
struct PluginOption: ParsableArguments {
    @Option(name: .customLong("plugin"), help: ArgumentHelp(
        "Host an installed LV2, LADSPA, DSSI, CLAP, VST3 or VST2 plug-in, by URI, name, FORMAT:NAME (clap:ZamComp), label, ladspa:ID, FILE.so:LABEL or a binary's path (see `detent plugins`), or `builtin` for the lowpass + gain. "
        + "Repeat it for a chain, run in the order given; NAME=URI names a slot (its parameters are NAME.ID).",
        valueName: "[name=]uri|name"), completion: Completions.plugins)
    var plugins: [String] = []

    @Option(help: ArgumentHelp(
        "Host the chain a chain or preset file describes, starting from its values (written by `detent preset save` or `detent preset export`).",
        valueName: "file"), completion: .file())
    var chain: String?

    @Option(help: ArgumentHelp(
        "Host a graph: slots (each a plug-in with starting values) and connections between them, the input, named inputs and the output, from a JSON file (see docs/graphs.md).",
        valueName: "file"), completion: .file(extensions: ["json"]))
    var graph: String?

    /// What these options choose.
    var choice: PluginChoice { PluginChoice(plugins: plugins, chain: chain, graph: graph) }

    /// The `--chain` file, which is also the preset the command starts from when no
    /// `--preset` is given.
    var startingPreset: String? { chain }

    /// True when neither option was given: the built-in alone.
    var isDefault: Bool { choice.isDefault }

    /// The processor and its preset store; see ``PluginChoice/resolved()``. A plug-in that
    /// cannot be found or hosted, or a chain that cannot be made, is one line on stderr and
    /// exit 64 or 65.
    func resolve() throws(PluginError) -> (processor: Processor, store: PresetStore) {
        try choice.resolved()
    }
}
