/// Turns frames into the bytes that bring a terminal from the last frame to the next one,
/// writing only the cells that changed.
///
/// The writer remembers what the terminal shows, and where its cursor and attributes are. Each
/// frame it walks the rows, and for every run of changed cells moves the cursor there by the
/// shortest sequence (an absolute `CSI row ; col H`, or relative moves from where the cursor
/// is), switches attributes only when the role changes, and writes the characters. A small gap
/// of unchanged cells between two changes is rewritten when that is no longer than moving over
/// it. A wide character is written once, from its left cell, and moves the cursor two
/// columns. After one that terminals measure differently (``DisplayWidth/isUnsettled(_:)``:
/// ❤️, a ZWJ sequence) the writer forgets the cursor's column and rewrites the rest of the
/// row from absolute positions, so a terminal that draws it wider or narrower shifts no later
/// cell. A frame identical to the last writes nothing at all. With synchronised output (mode
/// 2026) each frame is wrapped so the terminal shows it at once, never half drawn.
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
    /// Where the terminal's cursor is after the last frame; nil when unknown.
    private var position: CursorPosition?

    public init(theme: Theme) {
        self.theme = theme
    }

    /// Forgets what the terminal shows: the next frame clears the screen and draws everything.
    public mutating func invalidate() {
        shown = nil
        shownCursor = nil
        pen = nil
        position = nil
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
        let previous = shown.flatMap { $0.width == next.width && $0.height == next.height ? $0 : nil }
        var out = Output(theme: theme, width: next.width, pen: pen, cursor: previous == nil ? nil : position)
        if previous == nil {
            out.append("\u{1B}[0m\u{1B}[H\u{1B}[2J")
            out.pen = .plain
            out.cursorX = 0
            out.cursorY = 0
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
        position = cursor ?? out.cursorX.flatMap { x in out.cursorY.map { CursorPosition(x: x, y: $0) } }
        return bytes
    }

    /// The bytes of one frame under construction, with the cursor and pen it leaves behind.
    private struct Output {
        let theme: Theme
        let width: Int
        var bytes: [UInt8] = []
        /// The role whose attributes are in force; nil when unknown.
        var pen: CellRole?
        /// Where the next character lands; nil when unknown.
        var cursorX: Int?
        var cursorY: Int?

        init(theme: Theme, width: Int, pen: CellRole?, cursor: CursorPosition?) {
            self.theme = theme
            self.width = width
            self.pen = pen
            cursorX = cursor?.x
            cursorY = cursor?.y
        }

        mutating func append(_ text: String) { bytes += Array(text.utf8) }

        mutating func row(_ y: Int, of next: ScreenBuffer, previous: ScreenBuffer?) {
            // From here on the terminal may have drawn over cells: all count as changed.
            var uncertainFrom = Int.max
            func changed(_ x: Int) -> Bool {
                guard x < uncertainFrom else { return true }
                guard let previous else { return next[x, y] != .blank }
                return next[x, y] != previous[x, y]
            }
            /// Where to start writing for a change at `x`: a wide character is written whole,
            /// from its left half.
            func lead(_ x: Int) -> Int { next[x, y].isContinuation ? max(x - 1, 0) : x }
            func writeCell(_ x: Int) -> Int {
                let after = write(next, x, y: y)
                if DisplayWidth.isUnsettled(next[x, y].character) { uncertainFrom = min(uncertainFrom, after) }
                return after
            }
            var x = 0
            while x < width {
                guard changed(x) else { x += 1; continue }
                // Write this change, and carry on over unchanged cells to the next change on
                // the row when rewriting them is no longer than moving there.
                var end = lead(x)
                while true {
                    end = writeCell(end)
                    guard let nextChange = (end..<width).first(where: changed).map(lead) else { break }
                    if nextChange > end {
                        guard let rewrite = rewriteCost(from: end, to: nextChange, y: y, in: next),
                              rewrite <= motion(toX: nextChange, y: y).utf8.count
                        else { break }
                        while end < nextChange { end = writeCell(end) }
                    }
                }
                x = end
            }
        }

        /// The bytes of rewriting the unchanged cells `from..<to` as they are; nil when that
        /// would need an attribute change, or leave the cursor's column unknown.
        func rewriteCost(from: Int, to: Int, y: Int, in buffer: ScreenBuffer) -> Int? {
            var cost = 0
            for x in from..<to {
                let cell = buffer[x, y]
                guard cell.role == pen else { return nil }
                guard !cell.isContinuation else { continue }
                guard !DisplayWidth.isUnsettled(cell.character) else { return nil }
                cost += String(cell.character).utf8.count
            }
            return cost
        }

        /// The shortest sequence that moves the cursor to (`x`, `y`): an absolute position, or
        /// relative moves from where it is (up/down, then back/forward, a carriage return or
        /// an absolute column). On a tie the earlier of those wins.
        func motion(toX x: Int, y: Int) -> String {
            let absolute = "\u{1B}[\(y + 1);\(x + 1)H"
            guard let cx = cursorX, let cy = cursorY, cx < width else { return absolute }
            func relative(_ n: Int, _ final: String) -> String { n == 1 ? "\u{1B}[" + final : "\u{1B}[\(n)" + final }
            let vertical = y == cy ? "" : (y > cy ? relative(y - cy, "B") : relative(cy - y, "A"))
            var horizontal = ""
            if x != cx {
                let candidates = [
                    x > cx ? relative(x - cx, "C") : relative(cx - x, "D"),
                    "\u{1B}[\(x + 1)G",
                    x == 0 ? "\r" : "\r" + relative(x, "C"),
                ]
                horizontal = candidates.min { $0.utf8.count < $1.utf8.count }!
            }
            let relativeMove = vertical + horizontal
            return relativeMove.utf8.count <= absolute.utf8.count ? relativeMove : absolute
        }

        mutating func move(toX x: Int, y: Int) {
            guard cursorX != x || cursorY != y else { return }
            append(motion(toX: x, y: y))
            cursorX = x
            cursorY = y
        }

        /// Writes the character at (`x`, `y`) of `next` (moving there first if the cursor is not
        /// there), returning the column after it.
        mutating func write(_ next: ScreenBuffer, _ x: Int, y: Int) -> Int {
            move(toX: x, y: y)
            let cell = next[x, y]
            if pen != cell.role {
                append(theme.sgr(cell.role))
                pen = cell.role
            }
            // A continuation is never written on its own: the buffer keeps it after its wide
            // character, and writing from the left half covers it. Should one come alone, a
            // blank keeps the cursor where this writer thinks it is.
            let columns = max(cell.width, 1)
            append(cell.isContinuation ? " " : String(cell.character))
            // Past the last column the cursor's place differs between terminals: unknown. So
            // is it after a character terminals measure differently.
            if cell.isContinuation || !DisplayWidth.isUnsettled(cell.character) {
                cursorX = cursorX.flatMap { $0 + columns < width ? $0 + columns : nil }
            } else {
                cursorX = nil
            }
            return x + columns
        }
    }
}
