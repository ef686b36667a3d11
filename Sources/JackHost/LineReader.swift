import Glibc
import Platform

/// Reads lines from a file descriptor (standard input) and can be interrupted from any
/// thread: `readLine` waits in `poll` on the input and on a pipe, and `interrupt` writes
/// one byte to that pipe (async-signal-safe), so a signal or a lost server ends the command
/// loop at once instead of leaving it blocked in `read`.
public final class LineReader: @unchecked Sendable {
    private let input: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false

    /// Reads `fileDescriptor`, which stays the caller's: the reader never closes it (standard
    /// input outlives it).
    public init(fileDescriptor: Int32 = 0) {
        input = fileDescriptor
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        // Close-on-exec, so a program the process starts (a JACK client library may fork and
        // exec helpers) does not inherit the wake pipe. `pipe2(O_CLOEXEC)` would set it
        // atomically, but Swift's Glibc module does not import it (a GNU extension). `detent
        // live` makes its reader before it opens the JACK client, so no exec comes in between.
        for fd in fds where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Makes the current and every later `readLine` return nil.
    public func interrupt() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The next line without its newline (and without a trailing carriage return); nil at
    /// the end of the input or once interrupted. A last line without a newline is returned.
    public func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            do {
                try systemCall { poll(&fds, 2, -1) }
            } catch {
                return nil
            }
            if fds[1].revents != 0 { return nil }
            guard fds[0].revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            do {
                let n = try systemCall { read(input, &chunk, chunk.count) }
                if n > 0 { buffer += chunk[..<n] } else { atEnd = true }
            } catch where error == .resourceTemporarilyUnavailable {
                // Nothing to read after all (a non-blocking input): back to `poll`.
            } catch {
                atEnd = true
            }
        }
    }
}
