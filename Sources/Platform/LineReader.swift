import Glibc

/// Reads lines from a file descriptor (standard input) and can be interrupted from any
/// thread: `readLine` waits in `poll` on the input and on a pipe, and `interrupt` writes
/// one byte to that pipe (async-signal-safe), so a signal or a lost server ends the command
/// loop at once instead of leaving it blocked in `read`.
package final class LineReader: @unchecked Sendable {
    /// nil: no input at all (a service); `readLine` waits for `interrupt` only.
    private let input: Int32?
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false

    /// Reads `fileDescriptor`, which stays the caller's: the reader never closes it (standard
    /// input outlives it). With nil it reads nothing and waits until interrupted.
    package init(fileDescriptor: Int32? = 0) {
        input = fileDescriptor
        // Without a wake pipe (no descriptors left) the reader still reads; it just cannot
        // be woken early.
        let wake = (try? Pipe.make()) ?? (read: -1, write: -1)
        wakeRead = wake.read
        wakeWrite = wake.write
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Makes the current and every later `readLine` return nil.
    package func interrupt() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// One line of input, or the news that one was too long to take.
    package enum Line: Equatable, Sendable {
        case text(String)
        /// A line longer than ``maximumLength`` bytes: dropped whole, up to its newline.
        case tooLong
    }

    /// The longest line taken, in bytes (a command is a few dozen). Longer ones are dropped
    /// as they arrive, so a runaway writer costs neither memory nor time.
    package static let maximumLength = 64 * 1024

    /// Bytes before `scanned` (from `start`) hold no newline: each byte is looked at once,
    /// however the line arrives.
    private var start = 0
    private var scanned = 0
    /// Set while the rest of a too-long line is being dropped.
    private var dropping = false

    /// The next line without its newline (and without a trailing carriage return); nil at
    /// the end of the input or once interrupted. A last line without a newline is returned.
    package func readLine() -> Line? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                take(through: newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                if dropping || line.count > Self.maximumLength {
                    dropping = false
                    return .tooLong
                }
                return .text(String(decoding: line, as: UTF8.self))
            }
            scanned = buffer.count
            // (One byte of slack for a carriage return before the newline.)
            if buffer.count - start > Self.maximumLength + 1 {
                // Keep nothing of it: the rest is dropped up to the newline.
                dropping = true
                take(through: buffer.count - 1)
            }
            if atEnd {
                defer { take(through: buffer.count - 1) }
                if dropping || buffer.count - start > Self.maximumLength {
                    dropping = false
                    return .tooLong
                }
                guard start < buffer.count else { return nil }
                return .text(String(decoding: buffer[start...], as: UTF8.self))
            }
            // (A negative descriptor is one `poll` skips: without input only the wake counts.)
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: input ?? -1, events: Int16(POLLIN), revents: 0)]
            do {
                try systemCall("poll") { poll(&fds, 2, -1) }
            } catch {
                return nil
            }
            if fds[0].revents != 0 { return nil }
            guard let input, fds[1].revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
            do {
                let n = try DescriptorIO.read(input, into: &chunk)
                if n > 0 { buffer += chunk[..<n] } else { atEnd = true }
            } catch where error.errno == .resourceTemporarilyUnavailable {
                // Nothing to read after all (a non-blocking input): back to `poll`.
            } catch {
                atEnd = true
            }
        }
    }

    /// Consumes the buffer through `index`. The consumed bytes are dropped once they are
    /// most of it, and a buffer grown by a long line is given back.
    private func take(through index: Int) {
        start = index + 1
        scanned = start
        if start >= buffer.count {
            if buffer.capacity > 4 * Self.chunkSize { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            start = 0
            scanned = 0
        } else if start > buffer.count / 2 {
            buffer.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
    }

    private static let chunkSize = 4096
}
