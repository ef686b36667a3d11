import ArgumentParser
import DSP
import Plugins
import Presets

/// `--plugin URI|NAME`: host an installed LV2 plug-in instead of the built-in lowpass + gain.
struct PluginOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Host an installed LV2 plug-in, by URI or name (see `detent plugins`).", valueName: "uri|name"))
    var plugin: String?

    /// The processor: the plug-in, or the built-in when none is named. A plug-in that cannot
    /// be found or hosted is one line on stderr and exit 64 (unknown, ambiguous) or 65.
    func processor() throws -> Processor {
        do {
            return try Processor.named(plugin)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
    }

    /// The preset store of that processor: a plug-in's own LV2 presets are its read-only
    /// factory presets.
    func store() throws -> PresetStore {
        let processor = try processor()
        let scope = PresetScope(processor: processor.identifier, table: processor.table)
        guard plugin != nil else { return .standard(scope: scope) }
        return .standard(scope: scope, factoryPresets: PluginPresets.factory(for: try PluginSearch.find(processor.identifier)))
    }
}
