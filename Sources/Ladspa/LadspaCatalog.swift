import Platform
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
            if let plugins = cache.withLock({ $0[flavor] }) { return try match(reference, in: plugins, flavor: flavor) }
            // Without the listing at hand, the index says which library to open.
            var read: [String: [LadspaPlugin]] = [:]
            guard let stub = try match(reference, in: LadspaIndex.stubs(flavor, read: &read), flavor: flavor) else { return nil }
            let library = read[stub.path] ?? LadspaDiscovery.library(stub.path, flavor: flavor)
            if let plugin = library.first(where: { $0.index == stub.index && $0.uniqueID == stub.uniqueID && $0.label == stub.label }) {
                return plugin
            }
            // The library changed since it was looked at: read them all.
            return try match(reference, in: installed(flavor), flavor: flavor)
        }
        guard let (file, label) = fileAndLabel(reference) else { return nil }
        let paths = file.contains("/") ? [file] : flavor.folders.map { $0 + "/" + file }
        // The first file of that name on the search path, as in the listing (where it hides
        // any later one), read alone: naming a library costs one `dlopen`, not one per
        // installed library.
        for path in paths where PathString.isRegularFile(path) {
            if let known = cache.withLock({ $0[flavor] })?.first(where: { $0.path == path && $0.label == label }) { return known }
            if let plugin = LadspaDiscovery.library(path, flavor: flavor).first(where: { $0.label == label || $0.index < 0 }) {
                return plugin
            }
        }
        return nil
    }

    /// The one of `candidates` a prefixed `reference` names — by identifier, then ID, then
    /// label — or nil.
    /// - Throws: ``PluginError/ambiguous(_:candidates:)`` when an ID or label is shared.
    private static func match<Candidate: LadspaNaming>(
        _ reference: String, in candidates: [Candidate], flavor: LadspaFlavor
    ) throws(PluginError) -> Candidate? {
        let rest = String(reference.dropFirst(flavor.prefix.count))
        var matches = candidates.filter { $0.identifier == reference }
        if matches.isEmpty, let id = UInt(rest) { matches = candidates.filter { $0.uniqueID == id && $0.index >= 0 } }
        if matches.isEmpty { matches = candidates.filter { $0.label == rest && $0.index >= 0 } }
        if matches.count > 1 { throw .ambiguous(reference, candidates: matches.map { "\($0.path):\($0.label)" }) }
        return matches.first
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
