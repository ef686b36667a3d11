import Glibc

/// Signals handled on a thread of their own: a ``SignalPipe`` read by a named thread, which
/// calls `handle` with each signal's number as it comes — outside any handler, so `handle` may
/// do what the program needs (stop a host, remove temporary files, `_exit`), and even while the
/// main thread is stuck in a system call.
///
/// ```swift
/// let watcher = try SignalWatcher([SIGINT, SIGTERM]) { signal in stop() }
/// defer { watcher.stop() }
/// ```
package final class SignalWatcher: @unchecked Sendable {
    private let pipe: SignalPipe
    private var thread: NamedThread?

    package init(_ signals: [Int32], name: String = "signals", handle: @escaping @Sendable (Int32) -> Void) throws(SystemCallError) {
        let pipe = try SignalPipe(signals)
        self.pipe = pipe
        let readEnd = pipe.readEnd
        thread = try NamedThread(name: name) {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, -1)
                let n = read(readEnd, &buffer, buffer.count)
                guard n > 0 else { continue }
                for byte in buffer[0..<n] {
                    if byte == 0 { return }
                    handle(Int32(byte))
                }
            }
        }
    }

    /// Puts back the handlers found at start, and ends the thread.
    package func stop() {
        guard let thread else { return }
        self.thread = nil
        pipe.wakeReader()
        thread.join()
        pipe.close()
    }
}
