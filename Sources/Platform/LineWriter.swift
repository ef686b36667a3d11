import Glibc
import SystemPackage

/// Writes whole lines to a file descriptor, each with a single `write(2)` (continued only if
/// the system takes part of it, and after interrupts), unbuffered.
///
/// One write per line keeps lines from different threads (the live host's supervisor and the
/// command loop, parallel renders) from interleaving mid-line; no buffering means nothing is
/// lost or reordered when the process exits on a signal; and C's `stderr` global, which Swift 6
/// treats as shared mutable state, is never touched. Errors are ignored: there is no better
/// place left to report them.
package struct LineWriter: Sendable {
    package let fileDescriptor: Int32

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Standard error: where every problem and warning goes (the original stream, also once
    /// ``LibraryMessages/filter(dropping:)`` has taken descriptor 2).
    package static var standardError: LineWriter {
        LineWriter(fileDescriptor: LibraryMessages.standardError.load(ordering: .acquiring))
    }
    /// Standard output.
    package static let standardOutput = LineWriter(fileDescriptor: STDOUT_FILENO)

    /// `text` and a newline.
    package func line(_ text: String) {
        write(text + "\n")
    }

    /// `text` as it is (a progress line redrawn in place, several lines at once).
    package func write(_ text: String) {
        _ = try? FileDescriptor(rawValue: fileDescriptor).writeAll(Array(text.utf8))
    }

    /// True when the descriptor is a terminal.
    package var isTerminal: Bool { isatty(fileDescriptor) != 0 }
}
