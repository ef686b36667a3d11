/// A grid of cells: the picture of one frame, built before anything is written.
///
/// Drawing code writes into a buffer; ``FrameWriter`` compares it with the previous frame and
/// sends only the cells that differ. Writes outside the grid are clipped, so drawing code can
/// place things without bounds checks and a small window never traps.
///
/// A cell is a terminal column. A wide character (CJK, fullwidth forms, emoji: see
/// ``DisplayWidth``) takes its cell and a continuation cell to its right, and the buffer keeps
/// such pairs whole: writing over either half blanks the other, and a wide character that
/// would not fit (the right edge, a `put` limit) becomes a blank, so the screen never holds
/// half a glyph and columns after a wide character stay where layout put them. Characters
/// that take no column (control, format, a lone combining mark) are not drawn.
public struct ScreenBuffer: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x: x, y: y) ? cells[y * width + x] : .blank }
        set { place(newValue, x: x, y: y) }
    }

    /// Puts `cell` at (`x`, `y`) with its continuation when wide, blanking the other half of
    /// any wide character it overwrites half of. Returns the columns it took.
    @discardableResult
    private mutating func place(_ cell: Cell, x: Int, y: Int) -> Int {
        var cell = cell
        var columns = cell.isContinuation ? 0 : DisplayWidth.of(cell.character)
        // A continuation cannot stand alone, nor can a character that takes no column; a wide
        // character at the right edge would be cut in half.
        if columns == 0 || x + columns > width {
            cell = Cell(" ", cell.role)
            columns = 1
        }
        guard contains(x: x, y: y) else { return columns }
        let row = y * width
        if cells[row + x].isContinuation { cells[row + x - 1] = Cell(" ", cells[row + x - 1].role) }
        let after = x + columns
        if after < width, cells[row + after].isContinuation { cells[row + after] = Cell(" ", cells[row + after].role) }
        cells[row + x] = cell
        if columns == 2 { cells[row + x + 1] = .continuation(cell.role) }
        return columns
    }

    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// Writes `text` from column `x` on row `y`, each character in as many columns as it takes
    /// (``DisplayWidth``), clipped to the grid and, when given, to `limit` columns. A wide
    /// character that would straddle the limit is cut, leaving a blank in the last column.
    /// Returns the column after the last character.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: CellRole = .plain, limit: Int? = nil) -> Int {
        var column = x
        let end = limit.map { x + max($0, 0) } ?? Int.max
        for character in text {
            let columns = DisplayWidth.of(character)
            guard columns > 0 else { continue }
            guard column + columns <= end else {
                if column < end {
                    self[column, y] = Cell(" ", role)
                    column += 1
                }
                break
            }
            self[column, y] = Cell(character, role)
            column += columns
        }
        return column
    }

    /// Fills a rectangle with `cell` (a wide character in every other column, a blank in the
    /// last when it would not fit).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell = .blank) {
        let end = min(x + w, width)
        let columns = DisplayWidth.of(cell.character)
        for row in max(y, 0)..<max(min(y + h, height), max(y, 0)) {
            var column = max(x, 0)
            while column < end {
                column += place(column + columns <= end ? cell : Cell(" ", cell.role), x: column, y: row)
            }
        }
    }

    /// The characters of row `y` as a terminal shows them (a wide character once, for its two
    /// columns), trailing spaces kept.
    public func text(row y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        return String(cells[(y * width)..<(y * width + width)].lazy.filter { !$0.isContinuation }.map(\.character))
    }

    /// The whole screen as text, one line per row, trailing spaces removed.
    public var text: String {
        (0..<height).map { row in
            var line = text(row: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The role letters (``CellRole/letter``), one line per row and one letter per column (both
    /// halves of a wide character carry its role), for golden screens.
    public var roleMap: String {
        (0..<height).map { row in
            String(cells[(row * width)..<(row * width + width)].map(\.role.letter))
        }.joined(separator: "\n")
    }

    /// True when the row range holds `text` somewhere.
    public func contains(_ needle: String) -> Bool {
        (0..<height).contains { text(row: $0).contains(needle) }
    }
}
