@_exported import PluginFormats
import AudioEngine

/// LV2 as one format of the catalogue (``PluginCatalogue``): its plug-ins as entries, found by
/// URI, by name, or by a part of a name or URI.
public struct LV2Format: PluginFormat {
    public init() {}

    public var name: String { "LV2" }

    /// LV2 has no syntax of its own beyond URIs, which other formats' references can look like.
    public func claims(_ reference: String) -> Bool { false }

    public func installed() throws(PluginError) -> [PluginEntry] {
        try PluginCatalog.requireLibrary()
        return PluginCatalog.installed.map(Self.entry)
    }

    /// A URI, read alone (without reading every plug-in's description).
    public func exact(_ reference: String) throws(PluginError) -> PluginEntry? {
        guard PluginSearch.looksLikeURI(reference) else { return nil }
        try PluginCatalog.requireLibrary()
        return PluginCatalog.plugin(uri: reference).map(Self.entry)
    }

    public func entry(identifier: String) -> PluginEntry? {
        guard PluginSearch.looksLikeURI(identifier), (try? PluginCatalog.requireLibrary()) != nil else { return nil }
        return PluginCatalog.plugin(uri: identifier).map(Self.entry)
    }

    static func entry(_ plugin: PluginDescription) -> PluginEntry {
        PluginEntry(
            format: "LV2", identifier: plugin.uri, name: plugin.name, className: plugin.className,
            audioInputs: plugin.audioInputs.count, audioOutputs: plugin.audioOutputs.count,
            parameters: plugin.controlInputs.count, outputs: plugin.controlOutputs.map(\.symbol),
            takesMIDI: plugin.hasMIDIInput, isMIDIOnly: plugin.isMIDIOnly, unhostableReason: plugin.unhostableReason, searchTexts: [plugin.uri],
            processor: { () throws(PluginError) -> Processor in try Processor.plugin(plugin) },
            factoryPresets: { PluginPresets.factory(for: plugin) })
    }
}
