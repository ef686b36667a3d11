/// Finds the plug-in a person means by a URI or a name.
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

    /// The three names nearest to `text` by edit distance (of the name's words, so `compresor`
    /// finds the compressors).
    static func closest(to text: String, in plugins: [PluginDescription]) -> [String] {
        let scored = plugins.map { plugin -> (Int, String) in
            let name = plugin.name.lowercased()
            let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            let best = ([name] + words).map { distance(text, $0) }.min() ?? Int.max
            return (best, plugin.name)
        }
        let limit = max(2, text.count / 3)
        var seen = Set<String>()
        return scored.filter { $0.0 <= limit }.sorted { $0 < $1 }.map(\.1)
            .filter { seen.insert($0).inserted }.prefix(3).map { $0 }
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
