import ArgumentParser
import DSP
import Plugins
import Presets

/// `--plugin URI|NAME`: host an installed LV2 plug-in instead of the built-in lowpass + gain.
struct PluginOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Host an installed LV2 plug-in, by URI or name (see `detent plugins`).", valueName: "uri|name"))
    var plugin: String?

    /// The processor and its preset store (a plug-in's own LV2 presets are its read-only
    /// factory presets), the plug-in found once. A plug-in that cannot be found or hosted is
    /// one line on stderr and exit 64 (unknown, ambiguous) or 65.
    func resolve() throws -> (processor: Processor, store: PresetStore) {
        do {
            return try Self.find(plugin)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
    }

    /// The same for `plugin` (a URI or name; nil or the built-in's identifier for the
    /// built-in), with the reason it cannot be had as an error.
    static func find(_ plugin: String?) throws(PluginError) -> (processor: Processor, store: PresetStore) {
        guard let plugin, plugin != Processor.lowpassGain.identifier else { return (.lowpassGain, .standard()) }
        let description = try PluginSearch.find(plugin)
        let processor = try Processor.plugin(description)
        let scope = PresetScope(processor: processor.identifier, table: processor.table)
        return (processor, .standard(scope: scope, factoryPresets: PluginPresets.factory(for: description)))
    }
}
