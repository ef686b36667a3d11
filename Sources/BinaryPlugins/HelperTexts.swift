import CPlatform
import Glibc
import Parameters
import Platform
import Synchronization

/// A plug-in's own words asked of a process of their own, for a plug-in that runs in an
/// isolated slot: asking here (``BinaryTexts``) would load the plug-in into this process,
/// which isolation promises it never is. The process (`detent words REFERENCE IDENTIFIER`,
/// started by the program scans use, ``ScanHelper``) finds the plug-in as a sandbox does and
/// answers from an instance of its own, one line a question, tab-separated:
/// `t ROW VALUE` → `= TEXT` or `-`, and `v ROW TEXT` → `= VALUE` or `-`.
///
/// It starts at the first question. A process that ends, or takes longer than
/// ``firstAnswer`` (its plug-in loading) or ``answer`` to answer, is killed, and the words
/// are nil from then on (rows show Detent's own numbers): a plug-in that hangs costs one
/// wait, never one per question.
package final class HelperTexts: Sendable {
    static let firstAnswer = Duration.seconds(5), answer = Duration.seconds(1)
    private let reference: String
    private let identifier: String
    private let state = Mutex(State())

    fileprivate struct State: ~Copyable {
        var socket: LineSocket?
        var pid: pid_t = 0
        var failed = false
        var answered = false
        var recent = RecentTexts()
    }

    package init(reference: String, identifier: String) {
        self.reference = reference
        self.identifier = identifier
    }

    deinit {
        state.withLock { $0.end() }
    }

    /// The words of row `row` (of the plug-in's table alone), asked here and nowhere else.
    func row(_ row: Int, showsOwnText: Bool) -> any ParameterTexts {
        TextsRow(showsOwnText: showsOwnText, shown: { [self] in text(row: row, value: $0) },
                 read: { [self] in value(row: row, text: $0) }, moved: nil)
    }

    func text(row: Int, value: Double) -> String? {
        guard value.isFinite else { return nil }
        return state.withLock { state -> String? in
            // Once the process failed, nothing is asked and nothing kept is read.
            guard !state.failed else { return nil }
            var recent = state.recent  // apart from `state`, which the question changes
            let text = recent.text(row: row, value: value) {
                state.ask("t\t\(row)\t\(value)", reference: reference, identifier: identifier)
            }
            state.recent = recent
            return text
        }
    }

    func value(row: Int, text: String) -> Double? {
        // One line a question: a text that would break it is none the plug-in shows.
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return state.withLock { state in
            state.ask("v\t\(row)\t\(text)", reference: reference, identifier: identifier).flatMap(Double.init)
        }
    }
}

extension HelperTexts.State {
    /// The answer to `question` (nil: none, or the process failed: ``failed``).
    mutating func ask(_ question: String, reference: String, identifier: String) -> String? {
        guard !failed else { return nil }
        if socket == nil, !start(reference: reference, identifier: identifier) {
            failed = true
            return nil
        }
        guard let socket, socket.send(question) else {
            end()
            return nil
        }
        let wait = answered ? HelperTexts.answer : HelperTexts.firstAnswer
        guard case .line(let bytes) = socket.receive(waiting: Int32(wait.components.seconds * 1000)) else {
            end()
            return nil
        }
        answered = true
        let line = String(decoding: bytes, as: UTF8.self)
        return line.hasPrefix("=\t") ? String(line.dropFirst(2)) : nil
    }

    private mutating func start(reference: String, identifier: String) -> Bool {
        guard let helper = ScanHelper.current, let (mine, theirs) = try? LineSocket.pair() else { return false }
        defer { close(theirs) }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        // The plug-in's own printing goes nowhere: this process's output may be a render's.
        guard let pid = try? Spawn.start(helper.program, helper.arguments + ["words", reference, identifier],
                                         descriptors: [null, null, null, theirs]) else { return false }
        self.pid = pid
        socket = mine
        return true
    }

    /// Ends the process (killed: it may be hung) and its words.
    mutating func end() {
        failed = true
        socket?.shutdown()
        socket = nil
        if pid > 0 {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid)
            pid = 0
        }
    }
}
