import Glibc
import Platform

/// The terminal the panel runs on: raw mode and the panel's modes on ``enter()``, the terminal
/// exactly as found on ``leave()``.
///
/// Raw mode here means: no echo, no line editing, no signals from keys (Ctrl-C, Ctrl-Z and
/// Ctrl-\ arrive as bytes, so the panel decides what they do), no flow control, no output
/// processing; reads return as soon as one byte is there. The settings found at start are
/// kept, restored by ``leave()``, and also handed to ``EmergencyRestore`` for crashes.
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    /// The settings found when the session was opened.
    private let original: termios
    /// The raw settings ``enter()`` made.
    private var raw: termios?
    public private(set) var isActive = false

    /// Opens the session on standard input and output.
    ///
    /// - Throws: ``TerminalError/notATerminal(stream:)`` when either is not a terminal,
    ///   ``TerminalError/dumbTerminal`` for `TERM=dumb`.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, environment: [String: String]) throws(TerminalError) {
        guard isatty(input) == 1 else { throw .notATerminal(stream: "input") }
        guard isatty(output) == 1 else { throw .notATerminal(stream: "output") }
        if environment["TERM"] == "dumb" { throw .dumbTerminal }
        self.input = input
        self.output = output
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw .system("cannot read the terminal settings: \(Errno.last)")
        }
        original = settings
    }

    /// Raw mode, alternate screen, no cursor, mouse reports; then the feature questions.
    public func enter() throws(TerminalError) {
        EmergencyRestore.arm(fd: input, settings: original)
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON | INLCR | IGNCR)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        self.raw = raw
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw .system("cannot switch the terminal to raw mode: \(Errno.last)")
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
        var settings = original
        tcsetattr(input, TCSADRAIN, &settings)
        EmergencyRestore.disarm()
    }

    /// True while the terminal still has the raw settings ``enter()`` made — after a stop and
    /// continue, a shell may have changed them.
    public var hasRawSettings: Bool {
        guard isActive, let raw else { return false }
        var now = termios()
        guard tcgetattr(input, &now) == 0 else { return false }
        return now.c_iflag == raw.c_iflag && now.c_oflag == raw.c_oflag && now.c_cflag == raw.c_cflag
            && now.c_lflag == raw.c_lflag
            && withUnsafeBytes(of: now.c_cc, { Array($0) }) == withUnsafeBytes(of: raw.c_cc, { Array($0) })
    }

    /// The window's size in cells, and in pixels when the terminal tells (0 otherwise).
    public func size() -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) {
        var ws = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return (80, 24, 0, 0) }
        return (Int(ws.ws_col), Int(ws.ws_row), Int(ws.ws_xpixel), Int(ws.ws_ypixel))
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
