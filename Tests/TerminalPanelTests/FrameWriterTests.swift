import TestSupport
import AudioEngine
import Presets
import Testing
@testable import TerminalPanel

/// The diffing writer: exact bytes for small cases, worked out from ECMA-48 (CUP `ESC [ row ;
/// col H` is 1-based; CUU/CUD/CUF/CUB `ESC [ n A/B/C/D` move relative, n = 1 may be left out;
/// CHA `ESC [ col G`; CR goes to column 1) and the writer's rule of taking the shortest move;
/// and the law that replaying its output on an emulator gives the frame drawn.
@Suite("Frame writer")
struct FrameWriterTests {
    let esc = "\u{1B}"
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func screen(_ width: Int, _ height: Int, _ draw: (inout ScreenBuffer) -> Void) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: width, height: height)
        draw(&buffer)
        return buffer
    }

    @Test("the first frame hides the cursor, clears, and writes only non-blank cells")
    func firstFrame() {
        var writer = FrameWriter(theme: Theme(color: true))
        let frame = screen(10, 3) { $0.put("hello", x: 0, y: 0) }
        // After ESC[H the cursor is home: "hello" needs no move.
        #expect(text(writer.frame(frame)) == "\(esc)[?25l\(esc)[0m\(esc)[H\(esc)[2Jhello")
    }

    @Test("a frame equal to the last one writes nothing")
    func unchanged() {
        var writer = FrameWriter(theme: Theme(color: true))
        let frame = screen(20, 5) { $0.put("Cutoff", x: 3, y: 2, role: .nameFocused) }
        #expect(!writer.frame(frame).isEmpty)
        #expect(writer.frame(frame).isEmpty)
        #expect(writer.frame(frame).isEmpty)
    }

    @Test("one changed cell: the shortest move and the character; attributes only when they change")
    func oneCell() {
        var writer = FrameWriter(theme: Theme(color: true))
        var frame = screen(10, 6) { $0.put("hello", x: 0, y: 0) }
        _ = writer.frame(frame)
        // From (5, 0) to (3, 4): ESC[5;4H (6 bytes) beats ESC[4B ESC[2D (8).
        frame[3, 4] = Cell("Z")
        #expect(text(writer.frame(frame)) == "\(esc)[5;4HZ")
        // From (4, 4) back one: ESC[D (3 bytes).
        frame[3, 4] = Cell("Z", .error)
        #expect(text(writer.frame(frame)) == "\(esc)[D" + Theme(color: true).sgr(.error) + "Z")
    }

    @Test("small gaps are bridged by rewriting narrow cells, wide gaps by moving")
    func bridging() {
        var writer = FrameWriter(theme: Theme(color: false))
        var frame = screen(30, 2) { $0.put("abcdefghij", x: 0, y: 0) }
        _ = writer.frame(frame)
        // From (10, 0) to (2, 0): ESC[8D (4 bytes, the first of the shortest); then rewriting
        // "de" (2 bytes) beats ESC[2C (4 bytes).
        frame[2, 0] = Cell("X")
        frame[5, 0] = Cell("Y")
        #expect(text(writer.frame(frame)) == "\(esc)[8DXdeY")

        var braille = FrameWriter(theme: Theme(color: false))
        var cells = screen(30, 2) { $0.put("⣿⣿⣿⣿⣿⣿", x: 0, y: 1) }
        // From home down one row: ESC[B.
        #expect(text(braille.frame(cells)).hasSuffix("\(esc)[2J\(esc)[B⣿⣿⣿⣿⣿⣿"))
        // Back to column 1: CR. Braille cells take 3 bytes each: over two of them ESC[2C (4
        // bytes) is shorter than rewriting (6).
        cells[0, 1] = Cell("⣀")
        cells[3, 1] = Cell("⣀")
        #expect(text(braille.frame(cells)) == "\r⣀\(esc)[2C⣀")
        // Far apart on the row: a move forward.
        cells[0, 1] = Cell("⣿")
        cells[20, 1] = Cell("x")
        #expect(text(braille.frame(cells)) == "\r⣿\(esc)[19Cx")
    }

    @Test("synchronised output wraps a frame in mode 2026, and only a frame with changes")
    func synchronized() {
        var writer = FrameWriter(theme: Theme(color: true))
        writer.synchronizedOutput = true
        var frame = screen(10, 2) { $0.put("a", x: 0, y: 0) }
        let first = text(writer.frame(frame))
        #expect(first.hasPrefix("\(esc)[?2026h"))
        #expect(first.hasSuffix("\(esc)[?2026l"))
        #expect(writer.frame(frame).isEmpty)
        frame[1, 1] = Cell("b")
        #expect(text(writer.frame(frame)) == "\(esc)[?2026h\(esc)[Bb\(esc)[?2026l")
    }

    @Test("a prompt's cursor is placed and shown; hidden again when the prompt goes")
    func cursor() {
        var writer = FrameWriter(theme: Theme(color: false))
        var frame = screen(20, 3) { $0.put("x", x: 0, y: 0) }
        _ = writer.frame(frame)
        frame.put("Save as: ", x: 0, y: 2)
        let withCursor = text(writer.frame(frame, cursor: .init(x: 9, y: 2)))
        #expect(withCursor.hasSuffix("\(esc)[3;10H\(esc)[?25h"))
        // Only the cursor moves: no cells, just the move.
        #expect(text(writer.frame(frame, cursor: .init(x: 10, y: 2))) == "\(esc)[3;11H\(esc)[?25h")
        // Drawing while the cursor shows hides it first; from the prompt at (10, 2) home is
        // two rows up and a carriage return.
        frame[0, 0] = Cell("y")
        #expect(text(writer.frame(frame)) == "\(esc)[?25l\(esc)[2A\ry")
    }

    @Test("a different size or invalidate() redraws everything")
    func fullRedraw() {
        var writer = FrameWriter(theme: Theme(color: false))
        let frame = screen(10, 2) { $0.put("abc", x: 0, y: 0) }
        _ = writer.frame(frame)
        writer.invalidate()
        #expect(text(writer.frame(frame)).contains("\(esc)[2J"))
        let bigger = screen(12, 3) { $0.put("abc", x: 0, y: 0) }
        #expect(text(writer.frame(bigger)).contains("\(esc)[2J"))
    }

    @Test("replaying the writer's output on an emulator shows exactly the frames drawn")
    func replayLaw() {
        var random = SplitMix64(seed: 7)
        let characters: [Character] = [" ", "a", "Z", "⣿", "⠁", "─", "−", "▸"]
        let roles = CellRole.allCases
        var writer = FrameWriter(theme: Theme(color: true))
        var emulator = ScreenEmulator(width: 40, height: 12)
        var frame = ScreenBuffer(width: 40, height: 12)
        for round in 0..<200 {
            // A few random changes, sometimes many.
            let count = round % 17 == 0 ? 300 : Int(random.next() % 12)
            for _ in 0..<count {
                let x = Int(random.next() % 40), y = Int(random.next() % 12)
                frame[x, y] = Cell(characters[Int(random.next() % UInt64(characters.count))],
                                   roles[Int(random.next() % UInt64(roles.count))])
            }
            if round == 100 { writer.invalidate() }
            emulator.feed(writer.frame(frame))
            #expect(emulator.text == frame.text, "round \(round)")
            // Every drawn cell carries its role's attributes.
            for y in 0..<12 {
                for x in 0..<40 where frame[x, y].character != " " {
                    #expect("\u{1B}[" + emulator.attributes(x: x, y: y) + "m" == Theme(color: true).sgr(frame[x, y].role),
                            "round \(round) cell \(x),\(y)")
                }
            }
        }
    }
    @Test("a wide character is written once and moves the cursor two columns")
    func wideCursor() {
        var writer = FrameWriter(theme: Theme(color: false))
        var frame = screen(10, 2) { $0.put("暗x", x: 0, y: 0) }
        // No bytes for the continuation: "x" follows "暗" directly.
        #expect(text(writer.frame(frame)).hasSuffix("\(esc)[2J暗x"))
        // The cursor is after "x", at column 3 (0-based): one back to rewrite it.
        frame[2, 0] = Cell("y")
        #expect(text(writer.frame(frame)) == "\(esc)[Dy")
        // A changed wide character is written from its left half, once.
        frame[0, 0] = Cell("音")
        #expect(text(writer.frame(frame)) == "\r音")
    }

    @Test("a gap with a wide character costs its bytes once when bridged")
    func wideGap() {
        var writer = FrameWriter(theme: Theme(color: false))
        var frame = screen(10, 2) { $0.put("a暗b", x: 0, y: 0) }
        _ = writer.frame(frame)
        // From (4, 0) to (0, 0): CR. Then the gap "暗" (3 bytes) beats ESC[2C (4).
        frame[0, 0] = Cell("A")
        frame[3, 0] = Cell("B")
        #expect(text(writer.frame(frame)) == "\rA暗B")
    }

    @Test("after a character terminals measure differently the writer moves absolutely and rewrites the row's rest")
    func unsettled() {
        var writer = FrameWriter(theme: Theme(color: false))
        let frame = screen(8, 2) { $0.put("❤️ab", x: 0, y: 0) }
        #expect(text(writer.frame(frame)).hasSuffix("\(esc)[2J❤️\(esc)[1;3Hab    "))

        // An emulator that measures code point by code point (❤ is narrow there, and a ZWJ
        // family is three wide glyphs, over six columns) still shows what follows in the
        // buffer's columns, even cells that did not change.
        for glyph in ["❤️", "👨‍👩‍👧"] {
            var writer = FrameWriter(theme: Theme(color: false))
            var emulator = ScreenEmulator(width: 12, height: 1)
            var frame = screen(12, 1) { $0.put("ab    xy", x: 0, y: 0) }
            emulator.feed(writer.frame(frame))
            frame.put(glyph + "cd", x: 2, y: 0)
            emulator.feed(writer.frame(frame))
            #expect(emulator.column(of: "ab", row: 0) == 0, "\(glyph)")
            #expect(emulator.column(of: "cd", row: 0) == 4, "\(glyph)")
            #expect(emulator.column(of: "xy", row: 0) == 6, "\(glyph)")
        }
    }

    @Test("replaying frames with wide characters on a width-aware emulator shows every glyph in its column")
    func wideReplayLaw() {
        var random = SplitMix64(seed: 13)
        let texts = ["暗", "い音", "a", "Café ☕", "Ａb", "⣿─", "x暗y", "e\u{301}", "😀", " ", "  "]
        let roles = CellRole.allCases
        var writer = FrameWriter(theme: Theme(color: true))
        var emulator = ScreenEmulator(width: 30, height: 8)
        var frame = ScreenBuffer(width: 30, height: 8)
        for round in 0..<300 {
            let count = round % 19 == 0 ? 100 : Int(random.next() % 8)
            for _ in 0..<count {
                let x = Int(random.next() % 32) - 1, y = Int(random.next() % 8)
                frame.put(texts[Int(random.next() % UInt64(texts.count))], x: x, y: y,
                          role: roles[Int(random.next() % UInt64(roles.count))])
            }
            if round == 150 { writer.invalidate() }
            emulator.feed(writer.frame(frame))
            for y in 0..<8 {
                for x in 0..<30 {
                    let cell = frame[x, y]
                    #expect(emulator.glyph(x: x, y: y) == (cell.isContinuation ? nil : String(cell.character)),
                            "round \(round) cell \(x),\(y)")
                    if cell.character != " " {
                        #expect("\u{1B}[" + emulator.attributes(x: x, y: y) + "m" == Theme(color: true).sgr(cell.role),
                                "round \(round) cell \(x),\(y)")
                    }
                }
            }
        }
    }
}
