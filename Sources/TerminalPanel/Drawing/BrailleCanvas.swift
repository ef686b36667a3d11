/// A dot grid drawn with Unicode braille: each cell holds 2 × 4 dots, so a cell about twice as
/// tall as wide gets dots about as far apart across as down — circles come out round.
///
/// Every cell takes one role (a cell has one colour); where dots of several roles share a
/// cell, the one with the highest rank wins (the progress arc over the track, the indicator
/// over both).
///
/// ```swift
/// var canvas = BrailleCanvas(columns: 12, rows: 5)
/// canvas.plot(x: 3.2, y: 7.9, role: .track, rank: 1)
/// canvas.draw(into: &buffer, x: 10, y: 2)
/// ```
public struct BrailleCanvas: Sendable {
    public let columns: Int
    public let rows: Int
    private var bits: [UInt8]
    private var roles: [CellRole]
    private var ranks: [Int]

    /// The dot grid's size: two dots per column, four per row.
    public var dotsWide: Int { columns * 2 }
    public var dotsHigh: Int { rows * 4 }

    public init(columns: Int, rows: Int) {
        self.columns = max(columns, 0)
        self.rows = max(rows, 0)
        bits = Array(repeating: 0, count: self.columns * self.rows)
        roles = Array(repeating: .plain, count: self.columns * self.rows)
        ranks = Array(repeating: Int.min, count: self.columns * self.rows)
    }

    /// The bit of each dot in a braille cell, by column then row (U+2800 + bits).
    private static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// Sets the dot at integer dot coordinates (ignored outside the grid).
    public mutating func set(dotX: Int, dotY: Int, role: CellRole, rank: Int) {
        guard dotX >= 0, dotY >= 0, dotX < dotsWide, dotY < dotsHigh else { return }
        let cell = (dotY / 4) * columns + dotX / 2
        bits[cell] |= Self.dotBits[dotX % 2][dotY % 4]
        if rank >= ranks[cell] {
            ranks[cell] = rank
            roles[cell] = role
        }
    }

    /// Sets the dot containing the point (`x`, `y`) in dot units (dot (i, j) covers
    /// [i, i+1) × [j, j+1)).
    public mutating func plot(x: Double, y: Double, role: CellRole, rank: Int) {
        guard x.isFinite, y.isFinite, x >= 0, y >= 0 else { return }
        set(dotX: Int(x), dotY: Int(y), role: role, rank: rank)
    }

    /// A straight line of dots from one point to another.
    public mutating func line(fromX x0: Double, y0: Double, toX x1: Double, y1: Double, role: CellRole, rank: Int) {
        let steps = max(Int((max(abs(x1 - x0), abs(y1 - y0)) * 2).rounded(.up)), 1)
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            plot(x: x0 + (x1 - x0) * t, y: y0 + (y1 - y0) * t, role: role, rank: rank)
        }
    }

    /// True when any dot of cell (`column`, `row`) is set.
    public func isLit(column: Int, row: Int) -> Bool {
        guard column >= 0, row >= 0, column < columns, row < rows else { return false }
        return bits[row * columns + column] != 0
    }

    /// The number of dots set in the whole canvas.
    public var dotCount: Int { bits.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Copies the lit cells into `buffer` with the top-left cell at (`x`, `y`); unlit cells
    /// leave the buffer as it is.
    public func draw(into buffer: inout ScreenBuffer, x: Int, y: Int) {
        for row in 0..<rows {
            for column in 0..<columns where bits[row * columns + column] != 0 {
                let scalar = Unicode.Scalar(0x2800 + UInt32(bits[row * columns + column]))!
                buffer[x + column, y + row] = Cell(Character(scalar), roles[row * columns + column])
            }
        }
    }
}
