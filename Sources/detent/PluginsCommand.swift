import ArgumentParser
import Parameters
import Plugins

/// `detent plugins`: the installed LV2 plug-ins, and whether Detent can host each.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the installed LV2 plug-ins: name, URI, class, audio ports, parameters, and whether Detent can host each."
    )

    @Argument(help: "Only plug-ins whose name, URI or class contains this text (any case).")
    var text: String?

    @Flag(help: "Print one JSON object per plug-in, one per line.")
    var json = false

    func run() throws {
        var plugins = PluginCatalog.installed
        if let text {
            let wanted = text.lowercased()
            plugins = plugins.filter {
                $0.name.lowercased().contains(wanted) || $0.uri.lowercased().contains(wanted)
                    || $0.className.lowercased().contains(wanted)
            }
        }
        if json {
            for plugin in plugins { print(PluginListing.json(plugin).compactText) }
        } else if plugins.isEmpty {
            Console.error(text.map { "no installed LV2 plug-in matches '\($0)'" } ?? "no LV2 plug-ins are installed (LV2_PATH: \(PluginListing.searchPath))")
            throw ExitCode(1)
        } else {
            print(PluginListing.table(plugins), terminator: "")
            let hostable = plugins.filter(\.isHostable).count
            print("\(plugins.count) plug-ins, \(hostable) hostable")
        }
    }
}
