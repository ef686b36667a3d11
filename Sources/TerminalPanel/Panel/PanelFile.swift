/// A file parameter as the panel shows it (an LV2 plug-in's impulse response or sample): a
/// row of its own among the outputs, the file's name as its value, set with `f`.
///
/// ```swift
/// PanelFile(id: "ir", label: "Impulse Response", path: "/home/me/hall.wav")  // shown as "hall.wav"
/// ```
public struct PanelFile: Sendable, Hashable {
    /// What `set` takes (`ir`; `SLOT.ir` in a chain).
    public var id: String
    public var label: String
    /// The absolute path of the file loaded, or nil for none (the plug-in's own default).
    public var path: String?

    public init(id: String, label: String, path: String?) {
        self.id = id
        self.label = label
        self.path = path
    }

    /// The file's name without its folders, or `(none)`.
    public var shownName: String {
        guard let path else { return "(none)" }
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
