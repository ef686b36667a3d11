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

    /// Why ``make(_:mode:)`` stopped: the part of the path it could not make, and why.
    public struct MakeFailure: Error, Equatable, Sendable {
        public enum Reason: Equatable, Sendable {
            /// Something other than a folder is there.
            case notAFolder
            case system(SystemCallError)
        }
        /// The part of the path that stopped it (the whole path when the last part failed).
        public let folder: String
        public let reason: Reason
    }

    /// Makes the folder at `path`, whose parent must exist; one that exists already is fine.
    public static func makeOne(_ path: String, mode: mode_t = 0o777) throws(SystemCallError) {
        if mkdir(path, mode) != 0 && errno != EEXIST { throw .last("mkdir") }
    }

    /// Makes the folder at `path` and any missing above it (`mkdir -p`), each with `mode`
    /// less the umask's bits; an existing folder is fine, as is one another process makes
    /// at the same moment.
    public static func make(_ path: String, mode: mode_t = 0o777) throws(MakeFailure) {
        if PathString.isFolder(path) { return }
        var made = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            made = made.isEmpty ? String(part) : PathString.join(made, String(part))
            if PathString.isFolder(made) { continue }
            if PathString.exists(made) { throw MakeFailure(folder: made, reason: .notAFolder) }
            if mkdir(made, mode) != 0 {
                let error = SystemCallError.last("mkdir")
                if error.errno == .fileExists && PathString.isFolder(made) { continue }
                throw MakeFailure(folder: made, reason: .system(error))
            }
        }
    }

    /// Removes the folder at `path` and what is in it — files, links (never followed) and
    /// folders (a folder Detent made itself: a sanitizer runtime, a preset's state, a chain's
    /// slots' states inside it); whatever cannot be removed stays.
    public static func remove(folder path: String) {
        for name in (try? names(in: path)) ?? [] {
            let entry = path + "/" + name
            if FileStatus(entryAt: entry)?.kind == .folder { remove(folder: entry) } else { unlink(entry) }
        }
        rmdir(path)
    }
}
