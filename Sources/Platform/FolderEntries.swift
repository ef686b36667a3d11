import Glibc

/// The names in a folder: one way to list one (presets, plug-in bundles, the sanitizer's
/// runtime), without Foundation.
package enum FolderEntries {
    /// The names in the folder at `path`, without `.` and `..`, in no particular order.
    ///
    /// - Throws: the error of `opendir` (its `errno` is `.noSuchFileOrDirectory` for a folder that does
    ///   not exist, `.notDirectory` for a file in its place).
    package static func names(in path: String) throws(SystemCallError) -> [String] {
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
    package struct MakeFailure: Error, Equatable, Sendable {
        package enum Reason: Equatable, Sendable {
            /// Something other than a folder is there.
            case notAFolder
            case system(SystemCallError)
        }
        /// The part of the path that stopped it (the whole path when the last part failed).
        package let folder: String
        package let reason: Reason
    }

    /// Makes the folder at `path`, whose parent must exist; one that exists already is fine.
    package static func makeOne(_ path: String, mode: mode_t = 0o777) throws(SystemCallError) {
        if mkdir(path, mode) != 0 && errno != EEXIST { throw .last("mkdir") }
    }

    /// Makes the folder at `path` and any missing above it (`mkdir -p`), each with `mode`
    /// less the umask's bits; an existing folder is fine, as is one another process makes
    /// at the same moment.
    package static func make(_ path: String, mode: mode_t = 0o777) throws(MakeFailure) {
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

    /// Removes the folder at `path` and what is in it — files, links and folders (a folder
    /// Detent made itself: a sanitizer runtime, a preset's state, a chain's slots' states inside
    /// it); whatever cannot be removed stays. No link is followed, `path` itself included: a
    /// link there is removed, not what it points at, and every folder below is opened
    /// relative to the one above it, so swapping one for a link midway leads nowhere else.
    package static func remove(folder path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if FileStatus(entryAt: path)?.kind == .link { unlink(path) }
            return
        }
        removeContents(of: fd)
        rmdir(path)
    }

    /// Empties the folder open on `fd` (which it closes), depth first.
    private static func removeContents(of fd: Int32) {
        guard let folder = fdopendir(fd) else {
            close(fd)
            return
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names where unlinkat(fd, name, 0) != 0 && errno == EISDIR {
            let inner = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if inner >= 0 { removeContents(of: inner) }
            unlinkat(fd, name, AT_REMOVEDIR)
        }
    }
}
