/// A grid of cells: the picture of one frame, built before anything is written.
///
/// Drawing code writes into a buffer; ``FrameWriter`` compares it with the previous frame and
/// sends only the cells that differ. Writes outside the grid are clipped, so drawing code can
/// place things without bounds checks and a small window never traps.
///
/// Every character must be one column wide (ASCII, box drawing, braille, arrows); the panel
/// draws nothing else, which keeps a cell and a column the same thing.
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
        set { if contains(x: x, y: y) { cells[y * width + x] = newValue } }
    }

    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// Writes `text` from column `x` on row `y`, one character per cell, clipped to the grid
    /// and, when given, to `limit` columns. Returns the column after the last character.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: CellRole = .plain, limit: Int? = nil) -> Int {
        var column = x
        let end = limit.map { x + max($0, 0) } ?? Int.max
        for character in text {
            guard column < end else { break }
            self[column, y] = Cell(character, role)
            column += 1
        }
        return column
    }

    /// Fills a rectangle with `cell`.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell = .blank) {
        for row in max(y, 0)..<max(min(y + h, height), max(y, 0)) {
            for column in max(x, 0)..<max(min(x + w, width), max(x, 0)) {
                cells[row * width + column] = cell
            }
        }
    }

    /// The characters of row `y`, trailing spaces kept.
    public func text(row y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        return String(cells[(y * width)..<(y * width + width)].map(\.character))
    }

    /// The whole screen as text, one line per row, trailing spaces removed.
    public var text: String {
        (0..<height).map { row in
            var line = text(row: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The role letters (``CellRole/letter``), one line per row, for golden screens.
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
