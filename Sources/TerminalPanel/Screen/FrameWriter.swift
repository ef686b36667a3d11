/// Turns frames into the bytes that bring a terminal from the last frame to the next one,
/// writing only the cells that changed.
///
/// The writer remembers what the terminal shows. Each frame it walks the rows, and for every
/// run of changed cells moves the cursor there (`CSI row ; col H`), switches attributes only
/// when the role changes, and writes the characters. Small gaps of unchanged cells between two
/// changes are bridged by whichever is shorter: rewriting them, or a cursor-forward. A frame
/// identical to the last writes nothing at all. With synchronised output (mode 2026) each
/// frame is wrapped so the terminal shows it at once, never half drawn.
///
/// ```swift
/// var writer = FrameWriter(theme: Theme(color: true))
/// let first = writer.frame(buffer)          // clears and draws everything
/// let next = writer.frame(changedBuffer)    // only the differences
/// ```
public struct FrameWriter: Sendable {
    public var theme: Theme
    /// Wrap frames in `CSI ? 2026 h` … `CSI ? 2026 l` (set once the terminal reports the mode).
    public var synchronizedOutput = false

    /// What the terminal shows; nil when unknown (first frame, resize, resume).
    private var shown: ScreenBuffer?
    /// Where the terminal's cursor is shown: `.some(nil)` hidden, nil unknown.
    private var shownCursor: CursorPosition??
    /// The attributes in force after the last frame; nil when unknown.
    private var pen: CellRole?

    public init(theme: Theme) {
        self.theme = theme
    }

    /// Forgets what the terminal shows: the next frame clears the screen and draws everything.
    public mutating func invalidate() {
        shown = nil
        shownCursor = nil
        pen = nil
    }

    /// A visible cursor's place (a prompt's insertion point).
    public struct CursorPosition: Sendable, Hashable {
        public var x: Int
        public var y: Int
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// The bytes that turn the shown frame into `next`, with the cursor shown at `cursor` or
    /// hidden when nil. Empty when nothing changed.
    public mutating func frame(_ next: ScreenBuffer, cursor: CursorPosition? = nil) -> [UInt8] {
        var out = Output(theme: theme, pen: pen)
        let previous = shown.flatMap { $0.width == next.width && $0.height == next.height ? $0 : nil }
        if previous == nil {
            out.append("\u{1B}[0m\u{1B}[H\u{1B}[2J")
            out.pen = .plain
        }
        for y in 0..<next.height {
            out.row(y, of: next, previous: previous)
        }
        // nil: unknown, so it may be visible; .some(nil): hidden.
        let cursorKnown = shownCursor
        let cursorChanged = cursorKnown.map { $0 != cursor } ?? true
        guard !out.bytes.isEmpty || cursorChanged else { return [] }

        var bytes: [UInt8] = []
        if synchronizedOutput { bytes += Array("\u{1B}[?2026h".utf8) }
        let mayBeVisible = cursorKnown.map { $0 != nil } ?? true
        var hidden = !mayBeVisible
        if !out.bytes.isEmpty, !hidden {
            // A visible cursor would flicker across the screen while cells are written.
            bytes += Array("\u{1B}[?25l".utf8)
            hidden = true
        }
        bytes += out.bytes
        if let cursor {
            bytes += Array("\u{1B}[\(cursor.y + 1);\(cursor.x + 1)H\u{1B}[?25h".utf8)
        } else if !hidden {
            bytes += Array("\u{1B}[?25l".utf8)
        }
        if synchronizedOutput { bytes += Array("\u{1B}[?2026l".utf8) }
        shown = next
        shownCursor = .some(cursor)
        pen = out.pen
        return bytes
    }

    /// The bytes of one frame under construction, with the cursor and pen it leaves behind.
    private struct Output {
        let theme: Theme
        var bytes: [UInt8] = []
        /// The role whose attributes are in force; nil when unknown.
        var pen: CellRole?
        /// Where the next character would land; nil when unknown (after the last column).
        var cursorX: Int?
        var cursorY: Int?

        init(theme: Theme, pen: CellRole?) {
            self.theme = theme
            self.pen = pen
        }

        mutating func append(_ text: String) { bytes += Array(text.utf8) }

        mutating func row(_ y: Int, of next: ScreenBuffer, previous: ScreenBuffer?) {
            let width = next.width
            func changed(_ x: Int) -> Bool {
                guard let previous else { return next[x, y] != .blank }
                return next[x, y] != previous[x, y]
            }
            var x = 0
            while x < width {
                guard changed(x) else { x += 1; continue }
                move(toX: x, y: y, in: next)
                // Write this change and any later one on the row reachable more cheaply than
                // by a new cursor move.
                var end = x
                while true {
                    write(next[end, y])
                    end += 1
                    guard let nextChange = (end..<width).first(where: changed) else { break }
                    let gap = nextChange - end
                    if gap == 0 { continue }
                    let bridge = bridgeCost(from: end, to: nextChange, y: y, in: next)
                    let jump = Self.positionCost(x: nextChange, y: y)
                    guard bridge.cost < jump else { break }
                    if bridge.rewrite {
                        for gx in end..<nextChange { write(next[gx, y]) }
                    } else {
                        append("\u{1B}[\(gap)C")
                        cursorX = nextChange
                    }
                    end = nextChange
                }
                x = end
            }
        }

        /// The cheaper way over unchanged cells `from..<to`: rewrite them (only when they keep
        /// the current attributes) or move forward.
        func bridgeCost(from: Int, to: Int, y: Int, in buffer: ScreenBuffer) -> (cost: Int, rewrite: Bool) {
            let forward = 3 + String(to - from).utf8.count
            var rewrite = 0
            for x in from..<to {
                let cell = buffer[x, y]
                guard cell.role == pen else { return (forward, false) }
                rewrite += String(cell.character).utf8.count
            }
            return rewrite <= forward ? (rewrite, true) : (forward, false)
        }

        static func positionCost(x: Int, y: Int) -> Int {
            4 + String(y + 1).utf8.count + String(x + 1).utf8.count
        }

        mutating func move(toX x: Int, y: Int, in buffer: ScreenBuffer) {
            guard cursorX != x || cursorY != y else { return }
            append("\u{1B}[\(y + 1);\(x + 1)H")
            cursorX = x
            cursorY = y
        }

        mutating func write(_ cell: Cell) {
            if pen != cell.role {
                append(theme.sgr(cell.role))
                pen = cell.role
            }
            append(String(cell.character))
            // After the last column the terminal's cursor position is uncertain (pending wrap).
            cursorX = cursorX.map { $0 + 1 }
        }
    }
}
