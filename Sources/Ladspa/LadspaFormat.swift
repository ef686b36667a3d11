import AudioEngine
import Parameters
import PluginFormats
import Presets

/// LADSPA, or DSSI, as one format of the catalogue (``PluginCatalogue``).
public struct LadspaFormat: PluginFormat {
    public let flavor: LadspaFlavor

    public init(_ flavor: LadspaFlavor) { self.flavor = flavor }

    public static let ladspa = LadspaFormat(.ladspa)
    public static let dssi = LadspaFormat(.dssi)

    public var name: String { flavor.rawValue }

    public func claims(_ reference: String) -> Bool { LadspaCatalog.claims(reference, flavor: flavor) }

    public func installed() throws(PluginError) -> [PluginEntry] {
        LadspaCatalog.installed(flavor).map(Self.entry)
    }

    public func exact(_ reference: String) throws(PluginError) -> PluginEntry? {
        try LadspaCatalog.find(reference, flavor: flavor).map(Self.entry)
    }

    public func entry(identifier: String) -> PluginEntry? {
        guard identifier.hasPrefix(flavor.prefix) || LadspaCatalog.fileAndLabel(identifier) != nil else { return nil }
        return (try? LadspaCatalog.find(identifier, flavor: flavor)).flatMap { $0 }.map(Self.entry)
    }

    static func entry(_ plugin: LadspaPlugin) -> PluginEntry {
        PluginEntry(
            format: plugin.flavor.rawValue, identifier: plugin.index < 0 ? plugin.path : plugin.identifier,
            name: plugin.name, className: plugin.isSynth ? "Instrument" : "Plugin",
            audioInputs: plugin.audioInputs.count, audioOutputs: plugin.audioOutputs.count,
            parameters: plugin.controlInputs.count + (plugin.programs.isEmpty ? 0 : 1),
            outputs: LadspaTable.outputIDs(plugin).map(\.id), takesMIDI: plugin.isSynth,
            unhostableReason: plugin.unhostableReason, maker: plugin.maker, aliases: plugin.index < 0 ? [] : [plugin.label],
            searchTexts: [plugin.label, plugin.maker],
            processor: { () throws(PluginError) -> Processor in try Processor.ladspa(plugin) },
            factoryPresets: { LadspaPrograms.factory(for: plugin) })
    }
}
