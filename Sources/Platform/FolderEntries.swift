import Glibc

/// The names in a folder: one way to list one (presets, plug-in bundles, the sanitizer's
/// runtime), without Foundation.
public enum FolderEntries {
    /// The names in the folder at `path`, without `.` and `..`, in no particular order.
    ///
    /// - Throws: the error of `opendir` (its `errno` is `.noSuchFileOrDirectory` for a folder that does
    ///   not exist, `.notDirectory` for a file in its place).
    public static func names(in path: String) throws(SystemCallError) -> [String] {
        guard let folder = opendir(path) else { throw .last("opendir") }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Makes the folder at the absolute `path` and any missing above it (`mkdir -p`); false
    /// when one cannot be made.
    public static func make(_ path: String) -> Bool {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    /// True when `path` names a folder (following a symbolic link).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Removes the folder at `path` and the plain files in it (a folder Detent made itself: a
    /// sanitizer runtime, a preset's state); whatever cannot be removed stays.
    public static func remove(folder path: String) {
        for name in (try? names(in: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}
