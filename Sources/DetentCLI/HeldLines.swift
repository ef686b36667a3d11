import Platform
import Synchronization

/// Message lines held back while the knob panel owns the terminal, printed on stderr when it
/// hands the terminal back (in the order they came, from any thread).
final class HeldLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    func flush() {
        for line in lines.withLock({ held in defer { held.removeAll() }; return held }) {
            Console.raw(line + "\n")
        }
    }
}
