import Glibc

/// Paths as plain strings, and what is at them: folder, file name, stem and extension, spelled
/// exactly as the user gave them (swift-system's `FilePath` normalizes, dropping a trailing
/// `/` and doubled separators, which would change the paths error messages quote); whether a
/// path is a folder, a file, a stream, readable; and the few actions on a path by name.
package enum PathString {
    /// The folder part (`.` when there is none).
    package static func folder(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// The last component.
    package static func name(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The file name without its extension, and the extension (nil when there is none; a
    /// leading dot starts a hidden name, not an extension).
    package static func split(_ name: String) -> (stem: String, extension: String?) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
              name.index(after: dot) != name.endIndex else { return (name, nil) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `folder/name`, without doubling a slash.
    package static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// A file called `name` in the folder of `path` (just `name` when `path` has no folder).
    package static func sibling(of path: String, named name: String) -> String {
        path.contains("/") ? join(folder(of: path), name) : name
    }

    /// True when `path` names an existing folder (following links).
    package static func isFolder(_ path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when `path` names a regular file (following links).
    package static func isRegularFile(_ path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFREG
    }

    /// True when `path` names a special file — a device, a FIFO, a socket, a link under
    /// `/dev` or `/proc` (`/dev/stdout` is a link to whatever the shell connected, a regular
    /// file too), or any name right in `/dev` or under `/proc`: a stream to write to in place,
    /// never a file to replace, nor a folder to put files beside. A folder inside `/dev` that
    /// holds files of its own, such as `/dev/shm`, holds ordinary files.
    package static func isSpecial(_ path: String) -> Bool {
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
            var link = stat()
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK { return true }
            let folder = canonical(path).dropLast(name(of: path).count)
            // (`/dev/fd/N` resolves to `/proc/…/fd/N`.)
            if folder == "/dev/" || folder.hasPrefix("/proc/") { return true }
        }
        var s = stat()
        guard stat(path, &s) == 0 else { return false }
        let type = s.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// True when `path` leads (through links) to a pipe, a FIFO or a socket: a stream that
    /// is written once, front to back.
    package static func isPipe(_ path: String) -> Bool {
        var s = stat()
        guard stat(path, &s) == 0 else { return false }
        return (s.st_mode & S_IFMT) == S_IFIFO || (s.st_mode & S_IFMT) == S_IFSOCK
    }

    /// True when something (even a dangling link) exists at `path`.
    package static func exists(_ path: String) -> Bool {
        var s = stat()
        return lstat(path, &s) == 0
    }

    /// An absolute spelling of `path` with its folder resolved (links, `.` and `..`), for
    /// telling whether two outputs are the same file before either exists.
    package static func canonical(_ path: String) -> String {
        let folder = folder(of: path)
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        return join(String(cString: resolved), name(of: path))
    }

    /// nil when the file at `path` can be read (following links), else the system's reason.
    package static func readProblem(_ path: String) -> Errno? {
        access(path, R_OK) == 0 ? nil : Errno.last
    }

    /// True when the file at `path` can be read (following links).
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// True when `path` leads to a program this process may run.
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// True when `path` leads to something (a link is followed: a dangling one leads nowhere).
    package static func leadsSomewhere(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// `path` with every link, `.` and `..` resolved, or nil when it does not exist.
    package static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes the file (not a folder) at `path`, if it can; for clearing up a temporary file,
    /// where a failure leaves nothing better to do.
    package static func remove(_ path: String) {
        unlink(path)
    }

    /// Renames `from` to `to` (replacing a file there: atomic within a file system).
    package static func rename(_ from: String, to: String) throws(SystemCallError) {
        try systemCall("rename") { Glibc.rename(from, to) }
    }
}
