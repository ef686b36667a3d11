/// One plug-in format (LV2, LADSPA, DSSI, CLAP, VST3, VST2) as the catalogue sees it: every module that hosts a
/// format provides one, and a new format is a new module with a new conformance, not a change
/// to the catalogue or the command line.
public protocol PluginFormat: Sendable {
    /// The short name the listing shows (`LV2`).
    var name: String { get }

    /// Every installed plug-in of the format (read once per process and kept). A plug-in that
    /// cannot be read is listed with the reason it cannot be hosted, never left out silently.
    /// - Throws: when the format's host library itself is missing (lilv for LV2).
    func installed() throws(PluginError) -> [PluginEntry]

    /// True when `reference` is in a syntax only this format uses (`ladspa:…`): the catalogue
    /// then asks no other format for it first (an LV2 host would load its whole world to
    /// look for a URI it cannot have).
    func claims(_ reference: String) -> Bool

    /// The plug-in `reference` names in this format's own syntax (a URI, `ladspa:ID`,
    /// `FILE.so:LABEL`), found without reading every description; nil when the reference is
    /// not in that syntax or names nothing installed.
    func exact(_ reference: String) throws(PluginError) -> PluginEntry?

    /// The plug-in whose identifier is `identifier` (a preset's `processor`), or nil.
    func entry(identifier: String) -> PluginEntry?
}
