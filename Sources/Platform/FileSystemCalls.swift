import Glibc

/// The system calls a save makes (a preset's, a render's naming of its finished file), behind
/// a protocol so tests can make one of them fail midway (a full disk after half the bytes, a
/// failed `fsync`, a failed `rename`) and check that nothing was lost. Each call behaves like its POSIX namesake: on failure it returns -1 and
/// leaves the reason in `errno`.
package protocol FileSystemCalls: Sendable {
    /// Opens `path` (close-on-exec always); the descriptor, or -1.
    func open(_ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions,
              permissions: FilePermissions) -> Int32
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    func fsync(_ fd: Int32) -> Int32
    func close(_ fd: Int32) -> Int32
    func rename(_ from: String, _ to: String) -> Int32
    func link(_ from: String, _ to: String) -> Int32
    func unlink(_ path: String) -> Int32
}

/// The real system calls.
package struct SystemFileCalls: FileSystemCalls {
    package init() {}

    package func open(_ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions,
                     permissions: FilePermissions) -> Int32 {
        Glibc.open(path, access.rawValue | options.rawValue | O_CLOEXEC, permissions.rawValue)
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        DescriptorIO.systemWrite(fd, bytes)
    }

    package func fsync(_ fd: Int32) -> Int32 {
        Glibc.fsync(fd)
    }

    package func close(_ fd: Int32) -> Int32 {
        Glibc.close(fd)
    }

    package func rename(_ from: String, _ to: String) -> Int32 {
        Glibc.rename(from, to)
    }

    package func link(_ from: String, _ to: String) -> Int32 {
        Glibc.link(from, to)
    }

    package func unlink(_ path: String) -> Int32 {
        Glibc.unlink(path)
    }
}

/// Gives a finished temporary file its name: the one way Detent does it (presets, renders,
/// plug-in state, the sanitizer's runtime).
///
/// Replacing, it is renamed over the name (`rename` is atomic within a file system).
/// Otherwise it is hard-linked to the name, which claims the name only if it is free, even if
/// another file appeared there a moment ago, and the temporary name goes. On a file system
/// without hard links (the link fails with `EPERM`, `ENOTSUP`, `ENOSYS`, `EXDEV`, `EMLINK`) the
/// name is checked and then renamed to: no longer race-free, but the only way left that never
/// writes over an existing file knowingly. On failure the temporary file is left for the
/// caller to remove.
///
/// ```swift
/// try FileNaming.name(".out.wav.1f3a.tmp", as: "out.wav", replacing: false)
/// ```
package enum FileNaming {
    package enum Failure: Error, Equatable, Sendable {
        /// Not replacing, and the name is taken.
        case exists
        /// A step failed (`linking the temporary file`, `renaming the temporary file`).
        case failed(step: String, Errno)
    }

    /// The codes with which `link` says the file system has no hard links to give.
    static let withoutHardLinks: Set<Int32> = [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EXDEV, EMLINK]

    package static func name(_ temporary: String, as path: String, replacing: Bool,
                            calls: any FileSystemCalls = SystemFileCalls()) throws(Failure) {
        if replacing {
            guard calls.rename(temporary, path) == 0 else { throw .failed(step: "renaming the temporary file", .last) }
            return
        }
        if calls.link(temporary, path) == 0 {
            _ = calls.unlink(temporary)
            return
        }
        let code = errno
        if code == EEXIST { throw .exists }
        guard withoutHardLinks.contains(code) else { throw .failed(step: "linking the temporary file", Errno(rawValue: code)) }
        guard access(path, F_OK) != 0 else { throw .exists }
        guard calls.rename(temporary, path) == 0 else { throw .failed(step: "renaming the temporary file", .last) }
    }
}
