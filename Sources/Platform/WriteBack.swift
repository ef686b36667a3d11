import CPlatform

/// Starts writing bytes `offset ..< offset + count` of the file open on `descriptor` to its
/// disk, without waiting (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`), so that a later
/// `fsync` finds little left to do: a long output written stretch by stretch is on the disk
/// almost as soon as its last stretch is. Advice only; errors are ignored (a file system that
/// cannot is synced in full by the `fsync`).
public func startWriteBack(descriptor: Int32, offset: Int64, count: Int64) {
    _ = detent_start_writeback(descriptor, offset, count)
}
