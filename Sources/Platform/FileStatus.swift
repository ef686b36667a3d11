import Glibc

/// What is at a path or behind a descriptor: its kind, size and identity (`stat`), in the
/// package's own terms, so that code outside Platform never reads a `struct stat`.
package struct FileStatus: Sendable {
    package enum Kind: Sendable, Equatable {
        case regular, folder, pipe, socket, characterDevice, blockDevice, link, other
    }

    package let kind: Kind
    /// The size in bytes (of a regular file; what the system says, for the others).
    package let size: Int64
    package let identity: FileIdentity
    /// The device a character or block device stands for (`st_rdev`).
    package let deviceNumber: UInt64
    /// Identity, size and modification time (to the nanosecond) as one text: it changes when
    /// the file is replaced or rewritten, which makes it the key of a cache of what it held.
    package let version: String

    init(_ s: stat) {
        kind = switch s.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .folder
        case S_IFIFO: .pipe
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFLNK: .link
        default: .other
        }
        size = Int64(s.st_size)
        identity = FileIdentity(s)
        deviceNumber = UInt64(s.st_rdev)
        version = "\(s.st_dev):\(s.st_ino):\(s.st_size):\(s.st_mtim.tv_sec).\(s.st_mtim.tv_nsec)"
    }

    /// The file open on `descriptor`.
    package init(descriptor: Int32) throws(SystemCallError) {
        var s = stat()
        try systemCall("fstat") { fstat(descriptor, &s) }
        self.init(s)
    }

    /// The file at `path`, following links; nil when there is none.
    package init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        self.init(s)
    }

    /// What is at `path` itself: a symbolic link is `.link`, not what it points at.
    package init?(entryAt path: String) {
        var s = stat()
        guard lstat(path, &s) == 0 else { return nil }
        self.init(s)
    }
}
