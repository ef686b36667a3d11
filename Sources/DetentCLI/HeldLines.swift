import Platform
import Synchronization

/// Message lines held back while the knob panel owns the terminal, printed on stderr when it
/// hands the terminal back (in the order they came, from any thread). The panel shows each
/// as it comes, in its message line (``unshown()``), so a slot that goes down is said at once.
final class HeldLines: Sendable {
    private let lines = Mutex<(all: [String], shown: Int)>(([], 0))

    func append(_ line: String) { lines.withLock { $0.all.append(line) } }

    /// The lines the panel has not shown yet.
    func unshown() -> [String] {
        lines.withLock { held in
            defer { held.shown = held.all.count }
            return Array(held.all[held.shown...])
        }
    }

    func flush() {
        for line in lines.withLock({ held in defer { held = ([], 0) }; return held.all }) {
            Console.raw(line + "\n")
        }
    }
}
