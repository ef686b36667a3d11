import Glibc
import Synchronization
import SystemPackage

/// Messages that libraries print on stderr by themselves, kept out of the program's own.
///
/// Some libraries write to file descriptor 2 directly and offer no way to stop them through
/// the library that uses them (libmpg123, under libsndfile, prints its parser's warnings for
/// every odd MP3 frame). ``filter(dropping:)`` gives descriptor 2 to a pipe that a thread
/// reads, passing every line on except those the filter drops, while ``LineWriter``'s
/// standard error keeps writing to the original stream: the program's own lines stay one per
/// problem, and anything else a library prints (a crash report) still reaches the user.
package enum LibraryMessages {
    /// Where the program's own stderr lines go: descriptor 2 until ``filter(dropping:)`` runs.
    static let standardError = Atomic<Int32>(STDERR_FILENO)

    /// Starts filtering what libraries print on descriptor 2. Call once, before the libraries
    /// run; when it cannot (no descriptors, no thread) nothing changes.
    package static func filter(dropping drop: @escaping @Sendable (String) -> Bool) {
        let original = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard original >= 0 else { return }
        // The write end becomes stderr through dup2, which does not keep close-on-exec.
        guard let (reading, writing) = try? Pipe.make() else { close(original); return }
        do {
            try NamedThread.detach(name: "stderr-filter") { forward(from: reading, to: original, dropping: drop) }
        } catch {
            close(reading); close(writing); close(original)
            return
        }
        standardError.store(original, ordering: .releasing)
        dup2(writing, STDERR_FILENO)
        close(writing)
    }

    /// Copies lines from `source` to `destination` until the pipe closes, leaving out those
    /// `drop` matches.
    private static func forward(from source: Int32, to destination: Int32, dropping drop: (String) -> Bool) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while let n = try? chunk.withUnsafeMutableBytes({ p in try systemCall("read") { read(source, p.baseAddress, p.count) } }), n > 0 {
            pending += chunk[..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[...newline])
                pending.removeFirst(newline + 1)
                if !drop(String(decoding: line, as: UTF8.self)) {
                    _ = try? FileDescriptor(rawValue: destination).writeAll(line)
                }
            }
        }
    }
}
