import Glibc

/// A file's device and inode: two paths name the same file exactly when these agree, whatever
/// symbolic links, `..` or hard links lie between them.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(_ s: stat) {
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
    }

    /// The identity of the file at `path` (following links), or nil when there is none.
    public init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        self.init(s)
    }

    /// The identity of an open file.
    public init?(descriptor fd: Int32) {
        var s = stat()
        guard fstat(fd, &s) == 0 else { return nil }
        self.init(s)
    }

    /// The identity, size and modification time (to the nanosecond) of the file at `path`
    /// (following links), as one text, or nil when there is none: it changes when the file
    /// is replaced or rewritten, which makes it the key of a cache of what a file held.
    public static func version(of path: String) -> String? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        return "\(s.st_dev):\(s.st_ino):\(s.st_size):\(s.st_mtim.tv_sec).\(s.st_mtim.tv_nsec)"
    }
}
