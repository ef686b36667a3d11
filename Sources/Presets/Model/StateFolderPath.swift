/// Where a preset file (or a session file, which is one) keeps its plug-ins' state: the folder
/// `NAME.state` beside it, named relative to the file, a chain's slots each in a folder inside
/// it (`Mix.state/conv`).
///
/// A preset is text anyone can write or send, and its folder is read when the preset loads
/// and removed when it is deleted; a folder allowed anywhere else (`../..`, `/etc`, `.`, a
/// sibling preset's) would have those act outside the preset. So nothing else is read.
public enum StateFolderPath {
    /// What a state folder's name ends with.
    public static let suffix = ".state"

    /// The state folder that belongs to the preset file `fileName` (`Hall.json` → `Hall.state`):
    /// the one a save writes and a delete removes.
    public static func name(forPresetFile fileName: String) -> String {
        let stem = fileName.hasSuffix(PresetFileName.fileExtension) ? fileName.dropLast(PresetFileName.fileExtension.count) : fileName[...]
        return stem + suffix
    }

    /// What is wrong with `path`, a preset's `state.folder`, when it is not a folder
    /// `NAME.state` beside the preset (with at most a slot's folder inside it); nil when it is.
    public static func problem(_ path: String) -> String? {
        if path.utf8.contains(0) { return "a NUL character in it" }
        if path.hasPrefix("/") { return "an absolute path" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) { return "an empty, '.' or '..' part" }
        guard let folder = parts.first, folder.count > suffix.count, folder.hasSuffix(suffix), !folder.hasPrefix(".") else {
            return "a folder not named NAME\(suffix)"
        }
        if parts.count > 2 { return "a folder deeper than a slot's inside \(folder)" }
        return nil
    }
}
