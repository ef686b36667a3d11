import Parameters

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes.baseAddress, bytes.count)
        #else
        Darwin.write(fd, bytes.baseAddress, bytes.count)
        #endif
    }

    public func fsync(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.fsync(fd)
        #else
        Darwin.fsync(fd)
        #endif
    }

    public func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }

    public func rename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(from, to)
        #else
        Darwin.rename(from, to)
        #endif
    }

    public func link(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.link(from, to)
        #else
        Darwin.link(from, to)
        #endif
    }

    public func unlink(_ path: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.unlink(path)
        #else
        Darwin.unlink(path)
        #endif
    }
}
