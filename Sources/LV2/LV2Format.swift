@_exported import PluginFormats
import AudioEngine

/// LV2 as one format of the catalogue (``PluginCatalogue``): its plug-ins as entries, found by
/// URI, by name, or by a part of a name or URI.
public struct LV2Format: PluginFormat {
    public init() {}

    public var name: String { "LV2" }

    /// LV2 has no syntax of its own beyond URIs, which other formats' references can look like.
    public func claims(_ reference: String) -> Bool { false }

    /// Every installed plug-in, from the index where it knows the plug-in as it is now
    /// (``LV2Index``): the one chosen is read whole when its processor is made.
    public func installed() throws(PluginError) -> [PluginEntry] {
        try PluginCatalog.requireLibrary()
        return LV2Index.summaries().map { Self.entry($0) }
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

    /// The entry of an indexed plug-in, whose description is read when its processor or
    /// presets are asked for, or of one already read (`read`).
    static func entry(_ plugin: LV2Index.Summary, read: PluginDescription? = nil) -> PluginEntry {
        let uri = plugin.uri
        @Sendable func described() throws(PluginError) -> PluginDescription {
            guard let description = read ?? PluginCatalog.plugin(uri: uri) else { throw .unknown(uri, closest: []) }
            return description
        }
        return PluginEntry(
            format: "LV2", identifier: uri, name: plugin.name, className: plugin.className,
            audioInputs: plugin.audioInputs, audioOutputs: plugin.audioOutputs,
            parameters: plugin.parameters, outputs: plugin.outputs,
            takesMIDI: plugin.takesMIDI, isMIDIOnly: plugin.isMIDIOnly, unhostableReason: plugin.unhostableReason,
            maker: plugin.maker, searchTexts: [uri, plugin.maker],
            processor: { () throws(PluginError) -> Processor in try Processor.plugin(described()) },
            factoryPresets: { (try? described()).map(PluginPresets.factory) ?? [] })
    }

    static func entry(_ plugin: PluginDescription) -> PluginEntry {
        entry(LV2Index.Summary(plugin), read: plugin)
    }
}
