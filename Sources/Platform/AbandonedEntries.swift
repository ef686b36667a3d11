import Glibc

/// Temporary files and folders of writers that were killed (SIGKILL, a crash, a power cut)
/// before they could give them their names or remove them: a render's output, a preset's file,
/// a preset's state folder.
///
/// A writer claims what it makes (``claim(_:at:)``: an exclusive `flock`) from its creation
/// until it has its name or is gone, and the kernel drops that lock when the process dies,
/// however it dies. So a temporary entry that can be locked belongs to no running writer and
/// is removed; one that cannot is being written and is left alone — another process saving
/// beside this one is never disturbed.
package enum AbandonedEntries {
    /// Removes, in `folder`, the entries `isTemporary` accepts that no running writer holds,
    /// and returns the names of those a writer holds.
    @discardableResult
    package static func remove(in folder: String, where isTemporary: (String) -> Bool) -> Set<String> {
        guard let entries = try? FolderEntries.names(in: folder) else { return [] }
        var held: Set<String> = []
        for entry in entries where isTemporary(entry) {
            let path = PathString.join(folder, entry)
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard DescriptorIO.lockExclusively(fd) else {
                held.insert(entry)
                continue
            }
            if (try? FileStatus(descriptor: fd))?.kind == .folder { FolderEntries.remove(folder: path) } else { unlink(path) }
        }
        return held
    }

    /// Claims the temporary file or folder just made at `path`, open on `descriptor`, for as
    /// long as the descriptor (or a duplicate of it) stays open. False when a clean-up took it
    /// away between its creation and now: the caller makes another.
    package static func claim(_ descriptor: Int32, at path: String) -> Bool {
        guard DescriptorIO.lockExclusively(descriptor), let held = try? FileStatus(descriptor: descriptor),
              let named = FileStatus(entryAt: path) else { return false }
        return held.identity == named.identity
    }
}

extension AbandonedEntries {
    /// Makes the temporary folder `path`, which must not exist, and claims it (see
    /// ``claim(_:at:)``): the descriptor that holds the claim, for the caller to close once the
    /// folder has its name or is gone.
    ///
    /// - Throws: the error of `mkdir` or `open`; `EBUSY` (as `flock` would say) when a clean-up
    ///   took the folder away at once.
    package static func makeFolder(claimed path: String) throws(SystemCallError) -> Int32 {
        guard mkdir(path, 0o777) == 0 else { throw .last("mkdir") }
        let fd = try DescriptorIO.open(path, .readOnly, options: [.directory, .noFollow])
        guard claim(fd, at: path) else {
            try? DescriptorIO.close(fd)
            throw SystemCallError("flock", .resourceBusy)
        }
        return fd
    }
}
