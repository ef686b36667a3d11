import Glibc

/// Copies a file's content over another path the one way the package does it: into a new file
/// beside the destination, synced, then renamed over it, so that a reader of the destination
/// sees the old file or the whole new one, never part of it.
package enum FileCopy {
    /// Replaces `destination` by a copy of what `source` holds (a symbolic link is followed:
    /// `source` may be the link `destination` is). The copy is readable by all (0644, less the
    /// umask's bits), as files the user saves are.
    ///
    /// - Throws: the call that failed; then `destination` is as it was, and no temporary file
    ///   is left.
    package static func copy(_ source: String, over destination: String) throws(SystemCallError) {
        let input = try systemCall("open") { Glibc.open(source, O_RDONLY | O_CLOEXEC) }
        defer { close(input) }
        // A name of its own rather than a random one, so that the umask applies to the mode as
        // it does to any file the user saves.
        let temporary = destination + ".copying"
        let output = try systemCall("open") { Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        var isOpen = true
        do throws(SystemCallError) {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = try DescriptorIO.read(input, into: &buffer)
                if count == 0 { break }
                var written = 0
                try DescriptorIO.writeAll(output, Array(buffer[..<count]), written: &written)
            }
            try DescriptorIO.sync(output)
            isOpen = false
            try DescriptorIO.close(output)
            try systemCall("rename") { rename(temporary, destination) }
        } catch {
            if isOpen { close(output) }
            unlink(temporary)
            throw error
        }
    }
}
