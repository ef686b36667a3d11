import Platform

/// The terminal the panel runs on: raw mode and the panel's modes on ``enter()``, the terminal
/// exactly as found on ``leave()``.
///
/// Raw mode here means: no echo, no line editing, no signals from keys (Ctrl-C, Ctrl-Z and
/// Ctrl-\ arrive as bytes, so the panel decides what they do), no flow control, no output
/// processing; reads return as soon as one byte is there. The settings found at start are
/// kept, restored by ``leave()``, and also handed to ``TerminalCrashRestore`` for crashes.
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    /// The settings found when the session was opened.
    private let original: TerminalSettings
    /// The raw settings ``enter()`` made.
    private var raw: TerminalSettings?
    public private(set) var isActive = false

    /// Opens the session on standard input and output.
    ///
    /// - Throws: ``TerminalError/notATerminal(stream:)`` when either is not a terminal,
    ///   ``TerminalError/dumbTerminal`` for `TERM=dumb`.
    package init(
        input: Int32 = TerminalMode.standardInput, output: Int32 = TerminalMode.standardOutput, environment: [String: String]
    ) throws(TerminalError) {
        guard DescriptorIO.isTerminal(input) else { throw .notATerminal(stream: "input") }
        guard DescriptorIO.isTerminal(output) else { throw .notATerminal(stream: "output") }
        if environment["TERM"] == "dumb" { throw .dumbTerminal }
        self.input = input
        self.output = output
        do { original = try TerminalMode.settings(of: input) } catch {
            throw .system("cannot read the terminal settings: \(error.errno)")
        }
    }

    /// Raw mode, alternate screen, no cursor, mouse reports; then the feature questions.
    public func enter() throws(TerminalError) {
        TerminalCrashRestore.arm(fd: input, settings: original, leaving: Array(TerminalModes.leave.utf8))
        let raw = original.raw
        self.raw = raw
        do { try TerminalMode.apply(raw, to: input, droppingInput: true) } catch {
            throw .system("cannot switch the terminal to raw mode: \(error.errno)")
        }
        isActive = true
        try write(Array((TerminalModes.enter + TerminalModes.queries).utf8))
    }

    /// Leaves every mode and restores the settings found at start. Safe to call twice, and
    /// after the terminal went away (errors are ignored: there is nobody left to tell).
    public func leave() {
        guard isActive else { return }
        isActive = false
        _ = try? write(Array(TerminalModes.leave.utf8))
        try? TerminalMode.apply(original, to: input, droppingInput: false)
        TerminalCrashRestore.disarm()
    }

    /// True while the terminal still has the raw settings ``enter()`` made — after a stop and
    /// continue, a shell may have changed them.
    public var hasRawSettings: Bool {
        guard isActive, let raw else { return false }
        return (try? TerminalMode.settings(of: input)) == raw
    }

    /// The window's size in cells, and in pixels when the terminal tells (0 otherwise).
    public func size() -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) {
        TerminalMode.size(of: output) ?? (80, 24, 0, 0)
    }

    /// Writes all of `bytes`, waiting for the terminal when it is slow.
    public func write(_ bytes: [UInt8]) throws(TerminalError) {
        var written = 0
        while written < bytes.count {
            do {
                try DescriptorIO.writeAll(output, bytes, written: &written)
            } catch where error.errno == .resourceTemporarilyUnavailable {
                // A slow terminal (non-blocking output): wait until it takes more.
                DescriptorIO.waitWritable(output, milliseconds: 100)
            } catch {
                throw .system("cannot write to the terminal: \(error.errno)")
            }
        }
    }

    /// Reads what is there (at least one byte once `poll` said so); empty at end of input.
    public func read() throws(TerminalError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            do {
                let n = try DescriptorIO.read(input, into: &buffer)
                return Array(buffer[0..<n])
            } catch where error.errno == .resourceTemporarilyUnavailable {
                continue
            } catch {
                throw .system("cannot read from the terminal: \(error.errno)")
            }
        }
    }
}
