import CPlatform
import Glibc

extension PathString {
    /// Swaps what `first` and `second` name, in one step (`renameat2` with `RENAME_EXCHANGE`):
    /// a folder replaced this way is never missing, not even for an instant, and the one it
    /// replaced is still at hand under the other name, to be swapped back or removed.
    ///
    /// - Throws: the error of `renameat2` (`ENOENT` when either is missing, `EINVAL` on a file
    ///   system that cannot exchange).
    package static func exchange(_ first: String, _ second: String) throws(SystemCallError) {
        try systemCall("renameat2") { detent_rename_exchange(first, second) }
    }
}
