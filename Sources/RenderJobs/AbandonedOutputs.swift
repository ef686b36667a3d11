import OfflineRender
import Platform

/// Removes the temporary files of renders that were killed (SIGKILL, a crash, a node of a
/// cluster lost) before they could remove them: `.NAME.detent-XXXXXX` beside the output
/// `NAME`, as ``PendingOutput`` names them.
///
/// A render holds an exclusive `flock` on its temporary file from its creation until it is
/// renamed or removed, and the kernel drops that lock when the process dies, however it dies.
/// So a temporary file that can be locked belongs to no running render and is removed; one
/// that cannot is being written and is left alone — another shard on the same folder, or
/// another batch, is never disturbed.
package enum AbandonedOutputs {
    /// Removes, in `folder`, the abandoned temporary files of the outputs called `names`, and
    /// returns the names of those another running render holds a temporary file of: they are
    /// being rendered now, elsewhere.
    @discardableResult
    package static func remove(in folder: String, for names: Set<String>) -> Set<String> {
        guard let entries = try? FolderEntries.names(in: folder) else { return [] }
        var held: Set<String> = []
        for entry in entries {
            guard let name = outputName(ofTemporary: entry), names.contains(name) else { continue }
            let path = PathString.join(folder, entry)
            guard let fd = try? DescriptorIO.open(path, .readOnly, options: .noFollow) else { continue }
            if DescriptorIO.lockExclusively(fd) { PathString.remove(path) } else { held.insert(name) }
            try? DescriptorIO.close(fd)
        }
        return held
    }

    /// `NAME` for a temporary file called `.NAME.detent-XXXXXX`, else nil.
    package static func outputName(ofTemporary entry: String) -> String? {
        let bytes = Array(entry.utf8), marker = Array(".detent-".utf8), random = 6
        let markerStart = bytes.count - random - marker.count
        guard bytes.first == UInt8(ascii: "."), markerStart > 1,
              Array(bytes[markerStart..<(markerStart + marker.count)]) == marker else { return nil }
        return String(decoding: bytes[1..<markerStart], as: UTF8.self)
    }
}
