import Platform

/// How `--write-manifest` spells paths: relative to the written manifest's folder when the
/// file is inside it (so the manifest and its files can move together, to another machine
/// of a cluster), absolute otherwise — never relative to the folder the command ran in,
/// which a manifest read elsewhere would not know.
package struct ManifestPaths {
    /// The manifest's folder, absolute, without a trailing `/`.
    package let folder: String
    /// The current folder, absolute.
    private let current: String

    package init(folder: String) {
        current = ThisProcess.currentFolder
        var absolute = Self.absolute(folder, from: current)
        while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
        self.folder = absolute
    }

    /// `path` as the manifest holds it.
    package func written(_ path: String) -> String {
        let absolute = Self.absolute(path, from: current)
        let prefix = folder == "/" ? "/" : folder + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// `path` from the root: a relative one joined to `current`, `.` and `..` components
    /// resolved by name (links are left alone: they may not exist yet).
    package static func absolute(_ path: String, from current: String) -> String {
        var parts = path.hasPrefix("/") ? [] : current.split(separator: "/")
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
