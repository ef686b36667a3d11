import Glibc
import Synchronization

/// The temporary files of renders under way, for removal from a signal handler.
///
/// A second Ctrl-C ends the program at once, without unwinding to the code that would remove
/// its temporary files; the handler calls ``removeAll()``, which only loads atomics and calls
/// `unlink`, both safe in a signal handler. Each path is a C string made when the file is
/// registered and freed when it is finished.
public enum UnfinishedFiles {
    /// One slot per render that may run at once; a render finding none free is not
    /// registered (its file is still removed on every other way out).
    static let capacity = 256
    private static let slots: [Slot] = (0..<capacity).map { _ in Slot() }

    /// A path's address, or 0 for a free slot.
    private final class Slot: Sendable {
        let address = Atomic<Int>(0)
    }

    /// Makes the table before any signal can arrive (a handler must not be the first to touch it).
    public static func prepare() { _ = slots.count }

    /// Registers `path`; returns the slot to pass to ``remove(slot:)``, or nil.
    static func register(_ path: String) -> Int? {
        guard let copy = strdup(path) else { return nil }
        let address = Int(bitPattern: copy)
        for (index, slot) in slots.enumerated() where slot.address.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged {
            return index
        }
        free(copy)
        return nil
    }

    /// Forgets a registered file (finished, renamed or removed).
    static func remove(slot: Int) {
        let address = slots[slot].address.exchange(0, ordering: .acquiringAndReleasing)
        free(UnsafeMutablePointer<CChar>(bitPattern: address))
    }

    /// Renders opening their input, which may wait for as long as a stream withholds its
    /// header, where a render cannot look for a stop.
    static let opening = Atomic<Int>(0)

    /// True when renders wait for their inputs' headers and none has a temporary file: a
    /// signal may end the program at once, losing nothing. Async-signal-safe.
    public static var onlyWaitingForInput: Bool {
        opening.load(ordering: .acquiring) > 0 && slots.allSatisfy { $0.address.load(ordering: .acquiring) == 0 }
    }

    /// Removes every registered file. Async-signal-safe.
    public static func removeAll() {
        for slot in slots {
            if let path = UnsafePointer<CChar>(bitPattern: slot.address.load(ordering: .acquiring)) { unlink(path) }
        }
    }
}
