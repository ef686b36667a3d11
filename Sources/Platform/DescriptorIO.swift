import Glibc
import SystemPackage

/// Reads and writes through a file descriptor: the loops every writer needs (a short write
/// continued, an interrupted call made again), written once, with errors that name the call.
///
/// Outputs (renders, MIDI files, presets, plug-in state, the terminal) all write through here,
/// so that none of them can drop the tail of a short write or report a bare `EINTR`.
package enum DescriptorIO {
    /// Opens `path` for `access` with `options` (close-on-exec is added: no program the
    /// process starts inherits it); `permissions` for a file `.create` makes.
    package static func open(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: FilePermissions = [.ownerReadWrite, .groupReadWrite, .otherReadWrite]
    ) throws(SystemCallError) -> Int32 {
        try systemCall("open") { Glibc.open(path, access.rawValue | options.rawValue | O_CLOEXEC, permissions.rawValue) }
    }

    /// Takes the exclusive `flock` on the file open on `descriptor` without waiting; false
    /// when another open file description holds it. The kernel drops it when the descriptor
    /// closes or the process dies, however it dies.
    package static func lockExclusively(_ descriptor: Int32) -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Sets the permissions of the file open on `descriptor`.
    package static func setMode(_ descriptor: Int32, _ mode: FilePermissions) throws(SystemCallError) {
        try systemCall("fchmod") { fchmod(descriptor, mode.rawValue) }
    }

    /// A `write(2)`: returns the bytes taken, or -1 with `errno` set. Tests pass one that
    /// fails midway (a full disk after half the bytes).
    package typealias WriteCall = (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int

    /// The system's `write`.
    package static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        Glibc.write(descriptor, bytes.baseAddress, bytes.count)
    }

    /// Writes `bytes[written...]`, continuing after short writes and interrupts, and counts
    /// in `written` every byte the descriptor took — also when it throws, so that a caller on a
    /// non-blocking descriptor can wait (`EAGAIN`) and call again, and a file's writer knows
    /// how far it got. A write that takes nothing fails with `EIO`.
    package static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, written: inout Int, using write: WriteCall = systemWrite
    ) throws(SystemCallError) {
        while written < bytes.count {
            let start = written
            let n = try systemCall("write") { write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[start...])) }
            if n == 0 { throw SystemCallError("write", .ioError) }
            written += n
        }
    }

    /// Writes all of `bytes`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var written = 0
        try writeAll(descriptor, bytes, written: &written)
    }

    /// Writes `bytes[written...]`, as the form above.
    package static func writeAll(
        _ descriptor: Int32, _ bytes: [UInt8], written: inout Int, using write: WriteCall = systemWrite
    ) throws(SystemCallError) {
        var count = written
        defer { written = count }
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemCallError) in try writeAll(descriptor, raw, written: &count, using: write) }
        }.get()
    }

    /// Writes all of `bytes`.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var written = 0
        try writeAll(descriptor, bytes, written: &written)
    }

    /// Reads what is there into `bytes`, at most its count; 0 at the end of the input.
    package static func read(_ descriptor: Int32, into bytes: inout [UInt8]) throws(SystemCallError) -> Int {
        try bytes.withUnsafeMutableBytes { raw in Result { () throws(SystemCallError) in try read(descriptor, into: raw) } }.get()
    }

    /// Writes all of `bytes` at `offset` (`pwrite`: the descriptor's position stays).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let start = done
            let n = try systemCall("pwrite") {
                pwrite(descriptor, bytes.baseAddress! + start, bytes.count - start, off_t(offset) + off_t(start))
            }
            if n == 0 { throw SystemCallError("pwrite", .ioError) }
            done += n
        }
    }

    /// Reads what is there, at most `buffer.count` bytes; 0 at the end of the input.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try systemCall("read") { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads `buffer.count` bytes at `offset` (`pread`), fewer only at the end of the file.
    package static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
    ) throws(SystemCallError) -> Int {
        var done = 0
        while done < buffer.count {
            let start = done
            let n = try systemCall("pread") {
                pread(descriptor, buffer.baseAddress! + start, buffer.count - start, off_t(offset) + off_t(start))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// `count` bytes at `offset`, or nil when the file ends first or cannot be read.
    package static func bytes(_ descriptor: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { raw in try? read(descriptor, into: raw, at: offset) }
        return got == count ? bytes : nil
    }

    /// A duplicate of `descriptor`, closed on `exec`, for a writer that must own what it closes.
    package static func duplicate(_ descriptor: Int32) throws(SystemCallError) -> Int32 {
        try systemCall("fcntl") { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
    }

    /// True for a pipe or a socket: nothing to seek or to sync.
    package static func isStream(_ descriptor: Int32) -> Bool {
        var s = stat()
        return fstat(descriptor, &s) == 0 && ((s.st_mode & S_IFMT) == S_IFIFO || (s.st_mode & S_IFMT) == S_IFSOCK)
    }

    /// Moves the descriptor's position (`lseek`); returns the new one.
    package static func seek(_ descriptor: Int32, to offset: Int64, from whence: Int32 = SEEK_SET) throws(SystemCallError) -> Int64 {
        Int64(try systemCall("lseek") { lseek(descriptor, off_t(offset), whence) })
    }

    /// False for a descriptor with no position to move: a pipe, a socket, a terminal.
    package static func canSeek(_ descriptor: Int32) -> Bool {
        lseek(descriptor, 0, SEEK_CUR) >= 0 || errno != ESPIPE
    }

    /// True when `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }

    /// True when `descriptor` is open.
    package static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

    /// Waits until one of `descriptors` has something to read (or has ended), at most
    /// `milliseconds` (-1: no limit); says which. A signal arriving ends the wait early, as a
    /// timeout does: the caller looks at its signals and waits again.
    package static func waitReadable(_ descriptors: [Int32], milliseconds: Int32) -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        return fds.map { $0.revents != 0 }
    }

    /// ``waitReadable(_:milliseconds:)`` for at most `timeout`, rounded up to the millisecond
    /// (nil: no limit).
    package static func waitReadable(_ descriptors: [Int32], timeout: Duration?) -> [Bool] {
        let milliseconds = timeout.map { t -> Int32 in
            let (seconds, attoseconds) = max(t, .zero).components
            return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
        return waitReadable(descriptors, milliseconds: milliseconds ?? -1)
    }

    /// Waits until `descriptor` takes more (a slow terminal, a full pipe), at most
    /// `milliseconds`.
    package static func waitWritable(_ descriptor: Int32, milliseconds: Int32) {
        var fd = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&fd, 1, milliseconds)
    }

    /// True when the reader of the pipe or socket written through `descriptor` has gone (the
    /// descriptor polls as failed or hung up), so that what is written next is lost.
    package static func readerGone(_ descriptor: Int32) -> Bool {
        var watch = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&watch, 1, 0) == 1 && watch.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// The size of the file open on `descriptor`.
    package static func size(_ descriptor: Int32) throws(SystemCallError) -> Int64 {
        var s = stat()
        try systemCall("fstat") { fstat(descriptor, &s) }
        return Int64(s.st_size)
    }

    /// Cuts or extends the file open on `descriptor` to `size` bytes.
    package static func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        try systemCall("ftruncate") { ftruncate(descriptor, off_t(size)) }
    }

    /// Flushes the file to its disk. A kind of file that cannot be synced (a pipe, a device:
    /// `EINVAL`, `EROFS`) is not a failure.
    package static func sync(_ descriptor: Int32) throws(SystemCallError) {
        if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS { throw .last("fsync") }
    }

    /// Closes `descriptor`. Never called again on `EINTR`: Linux has closed it by then.
    package static func close(_ descriptor: Int32) throws(SystemCallError) {
        if Glibc.close(descriptor) != 0 { throw .last("close") }
    }
}
