import Platform

/// The terminal loop: it puts the terminal into the panel's modes, feeds keys, mouse reports
/// and signals to a ``Panel``, draws changed frames, and puts everything back.
///
/// One thread, one `poll` on the keyboard and the signal pipe. It sleeps until input, a signal,
/// or the next moment the picture changes by itself (a glide's next frame, a label going back
/// to the name, the host's next poll); frames are drawn only when something changed, at most
/// 60 a second, and only changed cells are written.
///
/// Signals are handled here, not in handlers: SIGINT, SIGTERM and SIGHUP restore the terminal
/// and end the loop; SIGWINCH resizes; SIGTSTP (or Ctrl-Z) restores the terminal, stops, and
/// on resume takes the terminal back and redraws everything; SIGCONT alone (after a stop the
/// panel did not ask for) does the same.
///
/// ```swift
/// let terminal = try TerminalSession(environment: environment)
/// let outcome = try PanelApp(panel: panel, terminal: terminal, theme: try .forEnvironment(environment)).run()
/// ```
public final class PanelApp {
    /// How the loop ended.
    public enum Outcome: Sendable, Hashable {
        /// `q` or Ctrl-C.
        case quit
        /// A signal asked the process to end; the terminal is restored, and the caller should
        /// end with it (re-raising it with its default action).
        case signal(Int32)
        /// The terminal went away (end of input, hang-up).
        case terminalGone
    }

    /// At most this many frames a second.
    public static let maximumFrameRate = 60.0
    /// How long a lone ESC waits for the rest of a sequence before it counts as the Escape key.
    public static let escapeDelay = 0.03
    /// How long a paste's end marker may keep the loop waiting before the paste is taken as
    /// it stands (a terminal that never sends it must not swallow every key after).
    public static let pasteDelay = 1.0

    let panel: Panel
    let terminal: TerminalSession
    var writer: FrameWriter
    var decoder = InputDecoder()
    var lastFrame = -Double.infinity
    var escapeDeadline: Double?
    /// The terminal said it knows SGR-pixel mouse reports; switched on once the cell size is known.
    var pixelMouseOffered = false

    public init(panel: Panel, terminal: TerminalSession, theme: Theme) {
        self.panel = panel
        self.terminal = terminal
        writer = FrameWriter(theme: theme)
    }

    /// The signals the panel handles, read in its loop: quit (INT, TERM, HUP), resize (WINCH),
    /// suspend and resume (TSTP, CONT).
    static let signals: [Int32] = [Signals.interrupt, Signals.terminate, Signals.hangUp, Signals.windowChange, Signals.terminalStop, Signals.`continue`]

    /// Runs until the panel quits, a signal ends it, or the terminal goes away. The terminal
    /// is restored on every way out, errors included.
    public func run() throws(TerminalError) -> Outcome {
        let signals: SignalPipe
        do { signals = try SignalPipe(Self.signals) } catch {
            throw .system("cannot create a pipe for signals: \(error)")
        }
        defer { signals.close() }
        try terminal.enter()
        defer { terminal.leave() }
        resize(at: MonotonicClock.now())
        while true {
            let now = MonotonicClock.now()
            panel.advance(to: now)
            if panel.needsDraw, now - lastFrame >= 1 / Self.maximumFrameRate {
                try draw(at: now)
            }
            let ready = DescriptorIO.waitReadable([terminal.input, signals.readEnd], milliseconds: timeout(after: now))
            let time = MonotonicClock.now()

            for signal in signals.take() {
                switch signal {
                case Signals.windowChange:
                    resize(at: time)
                case Signals.terminalStop:
                    try suspend(signals)
                case Signals.`continue`:
                    // After the panel's own suspend the terminal is already taken back; after
                    // a stop from elsewhere, take it back now.
                    if terminal.hasRawSettings {
                        writer.invalidate()
                        panel.needsDrawAfterResume()
                    } else {
                        try resume()
                    }
                default:
                    return .signal(signal)
                }
            }
            if ready[0] {
                let bytes = try terminal.read()
                guard !bytes.isEmpty else { return .terminalGone }
                try handle(decoder.feed(bytes), at: time)
                escapeDeadline = decoder.isPasting ? time + Self.pasteDelay
                    : (decoder.hasPendingBytes ? time + Self.escapeDelay : nil)
            } else if let deadline = escapeDeadline, time >= deadline {
                escapeDeadline = nil
                try handle(decoder.flush(), at: time)
            }
            if panel.quitRequested { return .quit }
            if panel.suspendRequested {
                panel.suspendRequested = false
                try suspend(signals)
            }
            if panel.repaintRequested {
                panel.repaintRequested = false
                writer.invalidate()
                try draw(at: time)
            }
        }
    }

    /// Milliseconds `poll` may sleep: until the next frame is due, the picture changes by
    /// itself, or a held ESC times out; forever when nothing is pending.
    func timeout(after now: Double) -> Int32 {
        let nextFrame = lastFrame + 1 / Self.maximumFrameRate
        var wake = panel.nextChange(after: now)
        // A change due now (a glide in progress) waits for the next frame's turn.
        if let due = wake, due <= now { wake = nextFrame }
        if panel.needsDraw { wake = min(wake ?? .infinity, nextFrame) }
        if let deadline = escapeDeadline { wake = min(wake ?? .infinity, deadline) }
        guard let wake, wake.isFinite else { return -1 }
        // At least 1 ms, so a frame due "now" at a coarse clock does not spin.
        return Int32(min(max(((wake - now) * 1000).rounded(.up), 1), 60_000))
    }

    func handle(_ events: [InputEvent], at time: Double) throws(TerminalError) {
        for event in events {
            switch event {
            case .modeReport(let mode, let state):
                guard TerminalModes.isSupported(state: state) else { continue }
                if mode == 2026 { writer.synchronizedOutput = true }
                if mode == 1016 {
                    pixelMouseOffered = true
                    try enablePixelMouseIfReady()
                }
            case .cellSize(let width, let height):
                panel.cellPixels = (width, height)
                try enablePixelMouseIfReady()
            default:
                panel.handle(event, at: time)
            }
        }
    }

    /// Pixel reports are only useful once a pixel can be mapped to a cell.
    func enablePixelMouseIfReady() throws(TerminalError) {
        guard pixelMouseOffered, panel.cellPixels != nil, panel.pointerUnit != .pixels else { return }
        try terminal.write(Array(TerminalModes.pixelMouse.utf8))
        panel.pointerUnit = .pixels
    }

    func draw(at time: Double) throws(TerminalError) {
        let (screen, cursor) = PanelRenderer.render(panel, at: time)
        let bytes = writer.frame(screen, cursor: cursor)
        if !bytes.isEmpty { try terminal.write(bytes) }
        panel.didDraw(at: time)
        lastFrame = time
    }

    func resize(at time: Double) {
        let size = terminal.size()
        panel.resize(width: size.columns, height: size.rows, at: time)
        if size.pixelWidth > 0, size.pixelHeight > 0 {
            panel.cellPixels = (size.pixelWidth / size.columns, size.pixelHeight / size.rows)
        } else if panel.pointerUnit == .pixels || pixelMouseOffered {
            // The font may have changed with the size: ask again.
            _ = try? terminal.write(Array("\u{1B}[16t".utf8))
        }
        writer.invalidate()
    }

    /// Ctrl-Z or SIGTSTP: give the terminal back as found, stop the process group as a shell
    /// expects, and take the terminal again when continued.
    func suspend(_ signals: SignalPipe) throws(TerminalError) {
        terminal.leave()
        signals.setDefault(Signals.terminalStop)
        Signals.sendToGroup(Signals.terminalStop)
        // Stopped here until SIGCONT.
        signals.install(Signals.terminalStop)
        try resume()
    }

    /// Takes the terminal again after a stop: raw mode and modes back, everything redrawn.
    func resume() throws(TerminalError) {
        terminal.leave()
        try terminal.enter()
        pixelMouseOffered = false
        panel.pointerUnit = .cells
        resize(at: MonotonicClock.now())
        panel.needsDrawAfterResume()
        lastFrame = -.infinity
    }
}
