import Glibc

/// A pipe that wakes a thread waiting in `poll` (``DescriptorIO/waitReadable(_:milliseconds:)``),
/// in this process or in a program it started: ``signal()`` writes a byte, the waiter
/// ``drain()``s them all. Both ends non-blocking, so a signal never waits: when bytes are
/// already pending, the waiter is woken anyway and one more is not needed.
package final class WakePipe: @unchecked Sendable {
    /// The end to wait on (-1 when this process holds only the writing end).
    package let readEnd: Int32
    /// The end to signal through (-1 when this process holds only the reading end).
    package let writeEnd: Int32

    /// A new pipe, both ends close-on-exec.
    package init() throws(SystemCallError) {
        (readEnd, writeEnd) = try Pipe.make(nonBlocking: true)
    }

    /// A new pipe for a program this process starts: this process keeps the writing end; the
    /// reading end is returned to hand to the program (``Spawn/start(_:_:environment:descriptors:)``),
    /// then close with ``DescriptorIO/close(_:)``.
    package static func toChild() throws(SystemCallError) -> (WakePipe, childReadEnd: Int32) {
        let (read, write) = try Pipe.make(nonBlocking: true)
        return (WakePipe(readEnd: -1, writeEnd: write), read)
    }

    private init(readEnd: Int32, writeEnd: Int32) {
        self.readEnd = readEnd
        self.writeEnd = writeEnd
    }

    /// The reading end of a pipe another process signals (inherited as a fixed descriptor).
    package init(inheritedReadEnd descriptor: Int32) {
        readEnd = descriptor
        writeEnd = -1
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if readEnd >= 0 { Glibc.close(readEnd) }
        if writeEnd >= 0 { Glibc.close(writeEnd) }
    }

    /// Wakes the waiter (never blocks).
    package func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    /// Takes every pending byte; false when the writing end has closed (the signalling
    /// process is gone).
    @discardableResult
    package func drain() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 256)
        while true {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if n > 0 || (n < 0 && errno == EINTR) { continue }
            // 0: end of file; -1 with EAGAIN: nothing more pending.
            return n != 0
        }
    }
}
