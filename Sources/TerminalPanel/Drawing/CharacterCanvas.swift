/// A grid of characters with ranks: the ASCII counterpart of ``BrailleCanvas``, for `--ascii`
/// terminals. Where two drawings land on one cell, the higher rank wins.
public struct CharacterCanvas: Sendable {
    public let columns: Int
    public let rows: Int
    private var cells: [Cell?]
    private var ranks: [Int]

    public init(columns: Int, rows: Int) {
        self.columns = max(columns, 0)
        self.rows = max(rows, 0)
        cells = Array(repeating: nil, count: self.columns * self.rows)
        ranks = Array(repeating: Int.min, count: self.columns * self.rows)
    }

    /// Puts `character` in the cell containing the point (`x`, `y`) in cell units.
    public mutating func plot(x: Double, y: Double, _ character: Character, role: CellRole, rank: Int) {
        guard x.isFinite, y.isFinite, x >= 0, y >= 0 else { return }
        set(column: Int(x), row: Int(y), character, role: role, rank: rank)
    }

    public mutating func set(column: Int, row: Int, _ character: Character, role: CellRole, rank: Int) {
        guard column >= 0, row >= 0, column < columns, row < rows else { return }
        let i = row * columns + column
        if rank >= ranks[i] {
            ranks[i] = rank
            cells[i] = Cell(character, role)
        }
    }

    /// Copies the drawn cells into `buffer` with the top-left at (`x`, `y`).
    public func draw(into buffer: inout ScreenBuffer, x: Int, y: Int) {
        for row in 0..<rows {
            for column in 0..<columns {
                if let cell = cells[row * columns + column] { buffer[x + column, y + row] = cell }
            }
        }
    }

    /// The ASCII character closest to a line at `angle` (radians clockwise from 12 o'clock,
    /// as the eye sees it on the screen): `|`, `/`, `-` or `\`.
    public static func stroke(atAngle angle: Double) -> Character {
        // Orientation of the line, folded into [0, π): 0 is vertical.
        var a = angle.truncatingRemainder(dividingBy: Double.pi)
        if a < 0 { a += Double.pi }
        switch a {
        case ..<(Double.pi / 8): return "|"
        case ..<(3 * Double.pi / 8): return "/"
        case ..<(5 * Double.pi / 8): return "-"
        case ..<(7 * Double.pi / 8): return "\\"
        default: return "|"
        }
    }
}
