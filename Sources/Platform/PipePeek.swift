import CPlatform
import Glibc
import SystemPackage

/// The first bytes waiting in a pipe, read without taking them out of it (`tee(2)` into a
/// scratch pipe), so that whoever reads the pipe next still gets them.
///
/// A reader that must choose how to read a stream by its first bytes (FLAC's magic number)
/// can look at them, then hand the untouched pipe on.
public enum PipePeek {
    /// Up to `count` bytes from the start of what the pipe `descriptor` holds, waiting until
    /// that many have arrived or the stream ends; nil when `descriptor` is not a pipe.
    public static func bytes(_ descriptor: Int32, count: Int) -> [UInt8]? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        defer { close(ends[0]); close(ends[1]) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        while true {
            guard let copied = try? systemCall({ detent_tee(descriptor, ends[1], UInt(count)) }) else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(copied))
            if copied > 0 {
                guard let n = try? bytes.withUnsafeMutableBytes({ p in try systemCall { read(ends[0], p.baseAddress, p.count) } }),
                      n == copied else { return nil }
            }
            if copied == 0 || Int(copied) >= count { return bytes }
            // Fewer bytes than asked have arrived: look again shortly (tee copies from the
            // start of the pipe every time).
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
    }
}
