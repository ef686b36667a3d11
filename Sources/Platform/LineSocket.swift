import Glibc
import SystemPackage

/// One end of a local socket pair that carries lines of text both ways between this process
/// and a program it started (a render's worker process).
///
/// A socket rather than two pipes: sending to a peer that has died fails with `EPIPE`
/// (`MSG_NOSIGNAL`) instead of killing this process with SIGPIPE, and one descriptor serves
/// both directions. One thread uses an end at a time.
package final class LineSocket: @unchecked Sendable {
    package private(set) var descriptor: Int32
    private var buffered: [UInt8] = []
    private var ended = false

    /// An end this process already holds (a worker's, inherited as a fixed descriptor).
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    /// A connected pair, both ends close-on-exec: one for this process, and the descriptor of
    /// the other to hand to a program (``Spawn/start(_:_:environment:descriptors:)``), then close.
    package static func pair() throws(SystemCallError) -> (LineSocket, Int32) {
        var ends: [Int32] = [-1, -1]
        try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        return (LineSocket(descriptor: ends[0]), ends[1])
    }

    /// Sends `line` and a line break, all of it; false when the peer is gone.
    @discardableResult
    package func send(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { buffer in
                (try? systemCall("send") { Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }) ?? -1
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// What ``receive(waiting:)`` got.
    package enum Received: Equatable {
        /// A line, without its line break.
        case line([UInt8])
        /// The peer closed its end (or died), with no unfinished line left.
        case end
        /// Nothing within the wait.
        case nothing
    }

    /// The next line; waits at most `milliseconds` for it (-1: for ever).
    package func receive(waiting milliseconds: Int32) -> Received {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return .line(line)
            }
            if ended || descriptor < 0 { return .end }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard let polled = try? systemCall("poll", { poll(&ready, 1, milliseconds) }) else { ended = true; continue }
            if polled == 0 { return .nothing }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { buffer in
                (try? systemCall("read") { read(descriptor, buffer.baseAddress, buffer.count) }) ?? 0
            }
            if count <= 0 { ended = true; continue }
            buffered += chunk[..<count]
        }
    }

    /// Ends both directions without closing the descriptor, from any thread: a
    /// ``receive(waiting:)`` waiting on another thread returns `.end` at once.
    package func shutdown() {
        if descriptor >= 0 { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Closes this end: the peer reads its end. Safe to call more than once.
    package func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
