/// The installed plug-ins of every format, listed together and found by one reference.
///
/// A reference is, in this order: a format's own syntax (an LV2 URI, `ladspa:ID`,
/// `ladspa:LABEL`, `FILE.so:LABEL`), asked of that format alone; an identifier or a whole name
/// (any case), which must be unique across the formats — a name two formats share is
/// ambiguous, and the error lists both with the identifier that picks each; then, format by
/// format in the catalogue's order, an exact alias (a LADSPA label) or a part of one name. The
/// order keeps references that found an LV2 plug-in before other formats were hosted finding
/// it still.
///
/// ```swift
/// let catalogue = PluginCatalogue(formats: [LV2Format(), LadspaFormat.ladspa, LadspaFormat.dssi])
/// let processor = try catalogue.find("Plate2x2").processor()
/// ```
public struct PluginCatalogue: Sendable {
    public let formats: [any PluginFormat]

    public init(formats: [any PluginFormat]) { self.formats = formats }

    /// Every installed plug-in of the formats that can be read, in name order, and why the
    /// others cannot (a missing host library).
    public func installed() -> (entries: [PluginEntry], problems: [PluginError]) {
        var entries: [PluginEntry] = [], problems: [PluginError] = []
        for format in formats {
            do { entries += try format.installed() } catch { problems.append(error) }
        }
        return (Self.inListingOrder(entries), problems)
    }

    /// Entries in the listing's order: by name (any case), then format, then identifier.
    public static func inListingOrder(_ entries: [PluginEntry]) -> [PluginEntry] {
        entries.sorted { ($0.name.lowercased(), $0.format, $0.identifier) < ($1.name.lowercased(), $1.format, $1.identifier) }
    }

    /// The plug-in `reference` means.
    /// - Throws: ``PluginError/unknown(_:closest:)`` with the closest names,
    ///   ``PluginError/ambiguous(_:candidates:)`` with the candidates, or the error of a format
    ///   that cannot be read when nothing else matched.
    public func find(_ reference: String) throws(PluginError) -> PluginEntry {
        let claiming = formats.filter { $0.claims(reference) }
        for format in claiming.isEmpty ? formats : claiming {
            if let entry = try format.exact(reference) { return entry }
        }
        let (entries, problems) = installed()
        let wanted = reference.lowercased()
        let whole = entries.filter { $0.identifier == reference || $0.name.lowercased() == wanted }
        if whole.count == 1 { return whole[0] }
        if whole.count > 1 {
            // One plug-in built in several formats (ZamComp as LV2, LADSPA, VST2, VST3 and
            // CLAP): the first format's is chosen, and the entry says how to pick another.
            let order = formats.map(\.name)
            let byFormat = whole.sorted { (order.firstIndex(of: $0.format) ?? order.count) < (order.firstIndex(of: $1.format) ?? order.count) }
            guard Set(whole.map(\.format)).count == whole.count else {
                throw .ambiguous(reference, candidates: whole.map(\.candidateText))
            }
            var chosen = byFormat[0]
            chosen.choiceNote = "'\(chosen.name)' is installed as \(byFormat.map(\.format).joined(separator: ", ")); "
                + "the \(chosen.format) build is used (another: \(byFormat.dropFirst().map(\.identifier).joined(separator: ", ")))"
            return chosen
        }
        for format in formats.map(\.name) {
            let own = entries.filter { $0.format == format }
            let aliased = own.filter { $0.aliases.contains { $0.lowercased() == wanted } }
            if aliased.count == 1 { return aliased[0] }
            if aliased.count > 1 { throw .ambiguous(reference, candidates: aliased.map(\.candidateText)) }
            let containing = own.filter { entry in
                entry.name.lowercased().contains(wanted) || entry.searchTexts.contains { $0.lowercased().contains(wanted) }
            }
            if containing.count == 1 { return containing[0] }
            if containing.count > 1 { throw .ambiguous(reference, candidates: containing.map(\.name)) }
        }
        if entries.isEmpty, let problem = problems.first { throw problem }
        throw .unknown(reference, closest: NameDistance.closest(to: wanted, in: entries.map(\.name)))
    }

    /// The plug-in a stored identifier (a preset's `processor`) names, or nil.
    public func entry(identifier: String) -> PluginEntry? {
        for format in formats {
            if let entry = format.entry(identifier: identifier) { return entry }
        }
        return nil
    }
}
