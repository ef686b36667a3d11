import Glibc

/// A file's device and inode: two paths name the same file exactly when these agree, whatever
/// symbolic links, `..` or hard links lie between them.
package struct FileIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    init(_ s: stat) {
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
    }

    /// The identity of the file at `path` (following links), or nil when there is none.
    package init?(path: String) {
        guard let status = FileStatus(path: path) else { return nil }
        self = status.identity
    }
}
