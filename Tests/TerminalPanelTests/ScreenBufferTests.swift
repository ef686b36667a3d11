import TestSupport
import AudioEngine
import Testing
@testable import TerminalPanel

/// The buffer keeps a wide character and its continuation together: a cell is a column.
@Suite("Screen buffer")
struct ScreenBufferTests {
    /// Each column as a test reads it: the character, `>` for a continuation.
    func columns(_ buffer: ScreenBuffer, row: Int = 0) -> String {
        String((0..<buffer.width).map { buffer[$0, row].isContinuation ? ">" : buffer[$0, row].character })
    }

    @Test("a wide character takes its cell and a continuation; put returns the column after it")
    func wideTakesTwo() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        #expect(buffer.put("a暗b", x: 1, y: 0, role: .name) == 5)
        #expect(columns(buffer) == " a暗>b   ")
        #expect(buffer[3, 0].role == .name)
        #expect(buffer.text(row: 0) == " a暗b   ")
        #expect(buffer.roleMap == ".nnnn...")
    }

    @Test("writing over either half of a wide character blanks the other half")
    func halves() {
        var left = ScreenBuffer(width: 6, height: 1)
        left.put("a暗b", x: 0, y: 0)
        left[1, 0] = Cell("x")
        #expect(columns(left) == "ax b  ")

        var right = ScreenBuffer(width: 6, height: 1)
        right.put("a暗b", x: 0, y: 0, role: .overlaySelected)
        right[2, 0] = Cell("y")
        #expect(columns(right) == "a yb  ")
        // The blank keeps the role it had: a selected row's background stays whole.
        #expect(right[1, 0].role == .overlaySelected)

        // A wide character one column into another: both neighbours lose their other half.
        var shifted = ScreenBuffer(width: 6, height: 1)
        shifted.put("暗い", x: 0, y: 0)
        shifted.put("音", x: 1, y: 0)
        #expect(columns(shifted) == " 音>   ")

        var filled = ScreenBuffer(width: 6, height: 1)
        filled.put("暗い", x: 0, y: 0)
        filled.fill(x: 1, y: 0, width: 2, height: 1)
        #expect(columns(filled) == "      ")
    }

    @Test("a wide character that would straddle the right edge or the limit becomes a blank")
    func edges() {
        var edge = ScreenBuffer(width: 5, height: 1)
        edge.put("abc暗", x: 1, y: 0, role: .name)
        #expect(columns(edge) == " abc ")
        #expect(edge[4, 0] == Cell(" ", .name))

        var limited = ScreenBuffer(width: 8, height: 1)
        #expect(limited.put("ab暗cd", x: 0, y: 0, role: .name, limit: 3) == 3)
        #expect(columns(limited) == "ab      ")
        #expect(limited[2, 0] == Cell(" ", .name))
        #expect(limited.put("ab暗cd", x: 0, y: 0, limit: 4) == 4)
        #expect(columns(limited) == "ab暗>    ")
    }

    @Test("characters that take no column are not drawn")
    func zeroWidth() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        #expect(buffer.put("a\u{200B}b\tc", x: 0, y: 0) == 3)
        #expect(columns(buffer) == "abc   ")
        buffer[4, 0] = Cell("\u{7}")
        #expect(buffer[4, 0] == .blank)
    }

    @Test("after any writes, every continuation follows a wide character and every row is as wide as the screen")
    func invariant() {
        var random = SplitMix64(seed: 11)
        let texts = ["暗", "い音", "a", "Café ☕", "Ａb", "─", "x暗y", "e\u{301}", "😀😀"]
        var buffer = ScreenBuffer(width: 17, height: 3)
        for step in 0..<2000 {
            let x = Int(random.next() % 20) - 2, y = Int(random.next() % 3)
            let text = texts[Int(random.next() % UInt64(texts.count))]
            switch random.next() % 4 {
            case 0: buffer[x, y] = Cell(text.first!, .name)
            case 1: buffer.fill(x: x, y: y, width: Int(random.next() % 5), height: 1, with: Cell(text.first!, .dim))
            default: buffer.put(text, x: x, y: y, role: .value, limit: Int(random.next() % 6))
            }
            for row in 0..<3 {
                for column in 0..<17 {
                    let cell = buffer[column, row]
                    let wide = !cell.isContinuation && DisplayWidth.of(cell.character) == 2
                    #expect(wide == buffer[column + 1, row].isContinuation, "step \(step) at \(column),\(row)")
                    #expect(!cell.isContinuation || buffer[column - 1, row].role == cell.role, "step \(step)")
                }
                #expect(DisplayWidth.of(buffer.text(row: row)) == 17, "step \(step)")
            }
        }
    }
}
