import Glibc

/// Writes whole lines to standard error with one `write(2)` each, so messages from the
/// supervisor thread and the command loop never interleave mid-line (and without touching
/// C's `stderr` global, which Swift 6 treats as shared mutable state).
public enum StandardError {
    public static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
