import Platform
import Synchronization

/// The temporary files of renders under way, for removal when the program ends at once.
///
/// A second Ctrl-C ends the program without unwinding to the code that would remove its
/// temporary files; the signal's thread calls ``removeAll()`` first (see ``RemovalList``
/// for why that is safe even in a signal handler).
public enum UnfinishedFiles {
    /// One slot per render that may run at once; a render finding none free is not
    /// registered (its file is still removed on every other way out).
    static let capacity = 256
    private static let list = RemovalList(capacity: capacity)

    /// Makes the list before any signal can arrive (a handler must not be the first to touch it).
    public static func prepare() { _ = list.capacity }

    /// Registers `path`; returns the slot to pass to ``remove(slot:)``, or nil.
    static func register(_ path: String) -> Int? { list.register(path) }

    /// Forgets a registered file (finished, renamed or removed).
    static func remove(slot: Int) { list.forget(slot: slot) }

    /// Renders opening their input, which may wait for as long as a stream withholds its
    /// header, where a render cannot look for a stop.
    static let opening = Atomic<Int>(0)

    /// True when renders wait for their inputs' headers and none has a temporary file: a
    /// signal may end the program at once, losing nothing. Async-signal-safe.
    public static var onlyWaitingForInput: Bool {
        opening.load(ordering: .acquiring) > 0 && list.isEmpty
    }

    /// Removes every registered file. Async-signal-safe.
    public static func removeAll() { list.removeAll() }
}
