/// A property a plug-in lets its host write with `patch:Set` messages in its control atom
/// input (`patch:writable`), read from its description: LV2's message-based parameters.
///
/// An `atom:Path` property names a file the plug-in loads (an impulse response, a sample);
/// Detent calls these *file parameters* (see ``isFile``). Numeric ones (`atom:Float`, `Double`,
/// `Int`, `Long`, `Bool`) are *message parameters*: table rows like control ports, sent as
/// `patch:Set` messages (see ``isNumeric``).
///
/// ```swift
/// PluginCatalog.plugin(uri: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono")?.properties.first?.id  // "ir"
/// ```
public struct PropertyDescription: Sendable, Hashable {
    /// The property's URI (`http://gareus.org/oss/lv2/zeroconvolv#ir`).
    public let uri: String
    /// Its `rdfs:label`, or ``id`` when it has none.
    public let label: String
    /// The URI of its `rdfs:range` (`atom:Path`, `atom:Float`), if it declares one.
    public let range: String?
    public let minimum: Double?
    public let maximum: Double?
    public let defaultValue: Double?
    /// The unit's URI (`units:db`), if it declares one.
    public var unit: String?

    /// The unit's symbol as a table shows it (`dB`), or empty.
    public var unitSymbol: String { PluginTable.unit(unit).symbol }

    /// The id people type: the URI's local name, after its last `#` or `/` (`ir`).
    public var id: String { Self.localName(uri) }

    /// True for a file parameter: its value is the path of a file the plug-in loads.
    public var isFile: Bool { range == LV2URI.atom + "Path" }

    /// True for a file parameter whose file is sound: its id or label speaks of an impulse
    /// response, a sample or audio (`ir`, `impulse`, "Impulse file 1", "Sample file name0"):
    /// LV2 says nothing of a path's kind, and the installed plug-ins name theirs so. A file
    /// that no audio format reads is refused for these before it reaches the plug-in.
    public var expectsAudio: Bool {
        guard isFile else { return false }
        let words = (id + " " + label).lowercased().split { !$0.isLetter }
        return words.contains { $0 == "ir" || $0.hasPrefix("impulse") || $0.hasPrefix("sample") || $0 == "audio" || $0 == "wav" }
    }

    /// The atom types a message parameter may have.
    static let numericRanges = ["Float", "Double", "Int", "Long", "Bool"].map { LV2URI.atom + $0 }

    /// True for a message parameter: a number (or a toggle) the table holds as a row.
    public var isNumeric: Bool { range.map(Self.numericRanges.contains) ?? false }

    /// The part of `uri` after its last `#`, or else its last `/` (the whole URI without either).
    static func localName(_ uri: String) -> String {
        if let hash = uri.lastIndex(of: "#"), uri.index(after: hash) < uri.endIndex {
            return String(uri[uri.index(after: hash)...])
        }
        let trimmed = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        if let slash = trimmed.lastIndex(of: "/") { return String(trimmed[trimmed.index(after: slash)...]) }
        return trimmed
    }
}
