import CPlatform
import Glibc
import SystemPackage

/// The first bytes waiting in a pipe, read without taking them out of it (`tee(2)` into a
/// scratch pipe), so that whoever reads the pipe next still gets them.
///
/// A reader that must choose how to read a stream by its first bytes (FLAC's magic number)
/// can look at them, then hand the untouched pipe on.
package enum PipePeek {
    /// Up to `count` bytes from the start of what the pipe `descriptor` holds, waiting until
    /// that many have arrived or the stream ends; nil when `descriptor` is not a pipe.
    package static func bytes(_ descriptor: Int32, count: Int) -> [UInt8]? {
        guard let pipe = try? Pipe.make() else { return nil }
        let ends = [pipe.read, pipe.write]
        defer { close(ends[0]); close(ends[1]) }
        while true {
            guard let copied = try? systemCall("tee", { detent_tee(descriptor, ends[1], UInt(count)) }) else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(copied))
            if copied > 0 {
                guard let n = try? bytes.withUnsafeMutableBytes({ p in try systemCall("read") { read(ends[0], p.baseAddress, p.count) } }),
                      n == copied else { return nil }
            }
            if copied == 0 || Int(copied) >= count || writerClosed(descriptor) { return bytes }
            // Fewer bytes than asked have arrived and the writer may send more: look again
            // shortly (tee copies from the start of the pipe every time).
            ThisThread.sleep(for: .milliseconds(2))
        }
    }

    /// True when nobody holds the pipe's write end any more (`POLLHUP`): what it holds now is
    /// all it will ever hold. (`tee` keeps answering with the bytes still waiting, never 0.)
    static func writerClosed(_ descriptor: Int32) -> Bool {
        var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&watch, 1, 0) > 0 && watch.revents & Int16(POLLHUP) != 0
    }
}
