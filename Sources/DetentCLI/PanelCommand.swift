import RenderJobs
import ArgumentParser
import Live
import Parameters
import AudioEngine
import Presets
import TerminalPanel
import WebBridge
import Rig

/// `detent panel`: the knob panel with no audio, for shaping and saving presets.
///
/// It starts from `--preset` (a name or a file) or from the Default preset, edits those values
/// as an unsaved preset, and saves them with `s`. With `--plugin` the knobs are an LV2
/// plug-in's controls and the presets its own (its LV2 presets and the user's for it). It
/// needs a terminal on standard input and output; anything else is refused with one line and
/// status 64.
struct PanelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "panel",
        abstract: "Turn the knobs in a terminal panel, without audio, and save presets.",
        discussion: """
            Keys: Tab/Shift-Tab or ←/→ move focus; ↑/↓, k/j, +/− turn (Ctrl or Alt: fine); \
            PgUp/PgDn coarse; Home/End; = or Enter types a value; d resets, D resets all; \
            p loads a preset, s saves; u/r undo and redo; c switches vertical/circular drag; \
            1…9 focus a knob on the page; [ and ] show the previous and next page when the \
            knobs do not all fit; Enter or space flips a switch; M mutes the level and gives it \
            back; ? shows help; q or Ctrl-C quits. Mouse: drag, wheel, double-click to reset; a \
            click flips a switch or steps a ‹ label ›. \
            Paste goes into the value prompt only. Honours NO_COLOR and DETENT_THEME; \
            draws ASCII when the locale is not UTF-8.
            """
    )

    @OptionGroup var plugin: PluginOption

    @Option(help: StartingValueOptions.presetHelp, completion: Completions.presets)
    var preset: String?

    @Flag(help: "Draw with ASCII characters only (the default when the locale is not UTF-8).")
    var ascii = false

    @OptionGroup var web: WebOptions

    @Option(help: ArgumentHelp("Colours: dark, light (for light backgrounds) or plain (the terminal's own). Default: $DETENT_THEME, else dark.", valueName: "theme"))
    var theme: ThemeStyle?

    func run() throws {
        let (processor, store) = try plugin.resolve()
        guard !processor.table.isEmpty else {
            throw CommandFailure("\(processor.name) has no controls to turn", exitCode: 65)
        }
        let theme = try KnobPanelSession.theme(theme)
        let terminal = try KnobPanelSession.openTerminal()
        let (defaults, defaultWarnings) = store.defaultValues()
        PresetCommand.warn(defaultWarnings)
        // Without --preset the panel starts from the Default preset, and says so.
        var loaded: LoadedPreset?
        if let preset = preset ?? plugin.startingPreset {
            loaded = try store.resolve(preset)
            PresetCommand.warn(loaded?.warnings ?? [])
        } else {
            loaded = store.defaultPreset()
        }
        let values = loaded?.values ?? defaults
        // A graph file's values over the Default preset, unless a preset is named.
        let starting = Dictionary(uniqueKeysWithValues: values.ordered.map { ($0.id, $0.value) })
            .merging(preset == nil ? try assignments(plugin.choice.startingSets, table: processor.table) : [:]) { $1 }
        let title = processor.isBuiltIn ? "Detent" : processor.name
        // With --http the browser panel turns the same values: a host both may change.
        let host: any PanelHost
        var server: WebPanelProcess?
        if try web.settings != nil {
            let shared = SharedPanelHost(processor: processor, values: starting,
                                         defaults: Dictionary(uniqueKeysWithValues: defaults.ordered.map { ($0.id, $0.value) }))
            server = try web.start(host: shared, changes: shared.changes, title: title, oscPort: nil, oscAddress: nil, log: { _ in })
            host = shared
        } else {
            host = NoAudioHost(values: starting)
        }
        defer { server?.stop() }
        let panel = Panel(values: values, defaults: defaults, preset: loaded?.preset, origin: loaded?.origin, host: host, store: store,
                          title: title, ascii: KnobPanelSession.ascii(ascii))
        try KnobPanelSession.run(panel, on: terminal, theme: theme)
    }
}

/// `--theme dark|light|plain`, in any case; help and completions list the names.
extension ThemeStyle: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
