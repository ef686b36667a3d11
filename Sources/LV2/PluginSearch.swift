/// Finds the LV2 plug-in a person means by a URI or a name (the catalogue of every format,
/// ``PluginCatalogue``, asks this format through ``LV2Format``).
///
/// A URI matches exactly; a name matches case-insensitively, whole, and must be unique.
/// Failing those, a text that is part of exactly one name picks it. Otherwise the error lists
/// the candidates (ambiguous) or the closest names (unknown).
public enum PluginSearch {
    public static func find(_ text: String) throws(PluginError) -> PluginDescription {
        try PluginCatalog.requireLibrary()
        if looksLikeURI(text), let plugin = PluginCatalog.plugin(uri: text) { return plugin }
        return try find(text, in: PluginCatalog.installed)
    }

    /// A scheme, a colon and no spaces (`http://…`, `urn:…`): only these are asked of lilv
    /// as URIs, which complains on stderr about anything else.
    static func looksLikeURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
              text[text.startIndex].isLetter, !text.contains(where: \.isWhitespace) else { return false }
        return text[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// The same search among `plugins`.
    public static func find(_ text: String, in plugins: [PluginDescription]) throws(PluginError) -> PluginDescription {
        if let plugin = plugins.first(where: { $0.uri == text }) { return plugin }
        let wanted = text.lowercased()
        let named = plugins.filter { $0.name.lowercased() == wanted }
        if named.count == 1 { return named[0] }
        if named.count > 1 { throw .ambiguous(text, candidates: named.map(\.uri)) }
        let containing = plugins.filter { $0.name.lowercased().contains(wanted) || $0.uri.lowercased().contains(wanted) }
        if containing.count == 1 { return containing[0] }
        if containing.count > 1 { throw .ambiguous(text, candidates: containing.map(\.name)) }
        throw .unknown(text, closest: closest(to: wanted, in: plugins))
    }

    /// The three names nearest to `text` (see ``NameDistance``).
    static func closest(to text: String, in plugins: [PluginDescription]) -> [String] {
        NameDistance.closest(to: text, in: plugins.map(\.name))
    }
}
