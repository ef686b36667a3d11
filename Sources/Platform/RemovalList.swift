import Glibc
import Synchronization

/// Paths to remove should the program end at once, without unwinding to the code that would
/// remove them (a second Ctrl-C while renders write their temporary files).
///
/// ``removeAll()`` may run in a signal handler, or on a thread while another is stuck in a
/// system call: it only loads atomics and calls `unlink`, both async-signal-safe, on C strings
/// made when each path was registered. The slots are one block of atomics allocated once, so
/// walking them takes no reference count and no lock. (Sendable unchecked: the pointer never
/// changes, and every access through it is atomic.)
package final class RemovalList: @unchecked Sendable {
    package let capacity: Int
    /// Each slot holds a path's address (a C string from `strdup`), or 0 when free.
    private let slots: UnsafeMutablePointer<Atomic<Int>>

    /// A list of `capacity` slots: a path registered while all are taken is not listed.
    package init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        for i in 0..<capacity { (slots + i).initialize(to: Atomic(0)) }
    }

    deinit {
        for i in 0..<capacity { free(UnsafeMutablePointer<CChar>(bitPattern: slots[i].load(ordering: .acquiring))) }
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Lists `path`; returns the slot to pass to ``forget(slot:)``, or nil when every slot is
    /// taken (or no memory is left for the copy).
    package func register(_ path: String) -> Int? {
        guard let copy = strdup(path) else { return nil }
        let address = Int(bitPattern: copy)
        for i in 0..<capacity where slots[i].compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged {
            return i
        }
        free(copy)
        return nil
    }

    /// Takes a path off the list (its file was finished, renamed or removed).
    package func forget(slot: Int) {
        let address = slots[slot].exchange(0, ordering: .acquiringAndReleasing)
        free(UnsafeMutablePointer<CChar>(bitPattern: address))
    }

    /// True when no path is listed. Async-signal-safe.
    package var isEmpty: Bool {
        (0..<capacity).allSatisfy { slots[$0].load(ordering: .acquiring) == 0 }
    }

    /// Removes every listed path (the list itself is left as it is: the program is ending).
    /// Async-signal-safe.
    package func removeAll() {
        for i in 0..<capacity {
            if let path = UnsafePointer<CChar>(bitPattern: slots[i].load(ordering: .acquiring)) { unlink(path) }
        }
    }
}
