import Parameters
import Glibc

/// The system calls a save makes, behind a protocol so tests can make one of them fail midway
/// (a full disk after half the bytes, a failed `fsync`, a failed `rename`) and check that
/// nothing was lost. Each call behaves like its POSIX namesake: on failure it returns -1 and
/// leaves the reason in `errno`.
public protocol FileSystemCalls: Sendable {
    func open(_ path: String, flags: Int32, mode: mode_t) -> Int32
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    func fsync(_ fd: Int32) -> Int32
    func close(_ fd: Int32) -> Int32
    func rename(_ from: String, _ to: String) -> Int32
    func link(_ from: String, _ to: String) -> Int32
    func unlink(_ path: String) -> Int32
}

/// The real system calls.
public struct SystemFileCalls: FileSystemCalls {
    public init() {}

    public func open(_ path: String, flags: Int32, mode: mode_t) -> Int32 {
        Glibc.open(path, flags, mode)
    }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        Glibc.write(fd, bytes.baseAddress, bytes.count)
    }

    public func fsync(_ fd: Int32) -> Int32 {
        Glibc.fsync(fd)
    }

    public func close(_ fd: Int32) -> Int32 {
        Glibc.close(fd)
    }

    public func rename(_ from: String, _ to: String) -> Int32 {
        Glibc.rename(from, to)
    }

    public func link(_ from: String, _ to: String) -> Int32 {
        Glibc.link(from, to)
    }

    public func unlink(_ path: String) -> Int32 {
        Glibc.unlink(path)
    }
}
