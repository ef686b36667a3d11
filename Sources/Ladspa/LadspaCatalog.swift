import PluginFormats
import Synchronization

/// The installed LADSPA and DSSI plug-ins, read once per process and flavour, and the
/// references that name one exactly: `ladspa:ID`, `ladspa:LABEL`, `ladspa:ID:LABEL` (the
/// identifier), and `FILE.so:LABEL` (a path, or a file name looked for in the search path).
public enum LadspaCatalog {
    private static let cache = Mutex<[LadspaFlavor: [LadspaPlugin]]>([:])

    /// Every plug-in of `flavor`'s search path, in name order.
    public static func installed(_ flavor: LadspaFlavor) -> [LadspaPlugin] {
        cache.withLock { cache in
            if let known = cache[flavor] { return known }
            let found = LadspaDiscovery.installed(flavor)
                .sorted { ($0.name.lowercased(), $0.path, $0.index) < ($1.name.lowercased(), $1.path, $1.index) }
            cache[flavor] = found
            return found
        }
    }

    /// True when `reference` is in a syntax of `flavor`'s own: its prefix, or a library file
    /// and a label.
    public static func claims(_ reference: String, flavor: LadspaFlavor) -> Bool {
        reference.hasPrefix(flavor.prefix) || fileAndLabel(reference) != nil
    }

    /// The plug-in `reference` names exactly, or nil when it names none of `flavor`'s.
    /// - Throws: ``PluginError/ambiguous(_:candidates:)`` when an ID or label is shared.
    public static func find(_ reference: String, flavor: LadspaFlavor) throws(PluginError) -> LadspaPlugin? {
        if reference.hasPrefix(flavor.prefix) {
            let rest = String(reference.dropFirst(flavor.prefix.count))
            let plugins = installed(flavor)
            var matches = plugins.filter { $0.identifier == reference }
            if matches.isEmpty, let id = UInt(rest) { matches = plugins.filter { $0.uniqueID == id && $0.index >= 0 } }
            if matches.isEmpty { matches = plugins.filter { $0.label == rest && $0.index >= 0 } }
            if matches.count > 1 { throw .ambiguous(reference, candidates: matches.map { "\($0.path):\($0.label)" }) }
            return matches.first
        }
        guard let (file, label) = fileAndLabel(reference) else { return nil }
        let paths = file.contains("/") ? [file] : flavor.folders.map { $0 + "/" + file }
        for path in paths where LadspaDiscovery.isFile(path) {
            if let known = installed(flavor).first(where: { $0.path == path && $0.label == label }) { return known }
            // A library outside the search path is read for this reference alone.
            if let plugin = LadspaDiscovery.library(path, flavor: flavor).first(where: { $0.label == label || $0.index < 0 }) {
                return plugin
            }
        }
        return nil
    }

    /// `FILE.so:LABEL` split, or nil.
    static func fileAndLabel(_ reference: String) -> (file: String, label: String)? {
        let characters = Array(reference)
        let marker = Array(".so:")
        guard characters.count > marker.count else { return nil }
        for start in stride(from: characters.count - marker.count, through: 1, by: -1)
        where Array(characters[start..<start + marker.count]) == marker {
            let label = String(characters[(start + marker.count)...])
            return label.isEmpty ? nil : (String(characters[..<start]) + ".so", label)
        }
        return nil
    }
}
