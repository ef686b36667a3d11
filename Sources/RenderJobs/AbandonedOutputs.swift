import OfflineRender
import Platform

/// Removes the temporary files of renders that were killed (SIGKILL, a crash, a node of a
/// cluster lost) before they could remove them: `.NAME.detent-XXXXXX` beside the output
/// `NAME`, as ``PendingOutput`` names them.
///
/// A render holds an exclusive `flock` on its temporary file from its creation until it is
/// renamed or removed, so ``AbandonedEntries`` tells the abandoned ones from those being
/// written: another shard on the same folder, or another batch, is never disturbed.
package enum AbandonedOutputs {
    /// Removes, in `folder`, the abandoned temporary files of the outputs called `names`, and
    /// returns the names of those another running render holds a temporary file of: they are
    /// being rendered now, elsewhere.
    @discardableResult
    package static func remove(in folder: String, for names: Set<String>) -> Set<String> {
        let held = AbandonedEntries.remove(in: folder) { entry in outputName(ofTemporary: entry).map(names.contains) ?? false }
        return Set(held.compactMap(outputName(ofTemporary:)))
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
