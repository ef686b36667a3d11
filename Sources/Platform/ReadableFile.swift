import Glibc

/// A path that names a regular file this process can read, made absolute (against the
/// current folder): how a file a processor will load (an impulse response, a sample) is
/// checked before it reaches the processor, from the command line and from a running host.
package enum ReadableFile {
    /// Why a path is not one.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case noName
        case cannotRead(path: String, reason: String)
        case notAFile(path: String)

        package var description: String {
            switch self {
            case .noName: "no file named"
            case .cannotRead(let path, let reason): "cannot read '\(path)': \(reason)"
            case .notAFile(let path): "'\(path)' is not a file"
            }
        }
    }

    /// `path` made absolute, once it is known to name a regular file that can be read.
    package static func checked(_ path: String) throws(Problem) -> String {
        guard !path.isEmpty else { throw .noName }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotRead(path: path, reason: Errno.last.description) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotRead(path: path, reason: Errno.last.description) }
        close(fd)
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }
}
