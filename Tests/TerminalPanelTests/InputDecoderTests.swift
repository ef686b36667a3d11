import Testing
@testable import TerminalPanel

/// The decoder on byte strings: what xterm-compatible terminals send for each key and mouse
/// action (xterm's ctlseqs), split anywhere, mixed with sequences the panel does not use.
@Suite("Input decoder")
struct InputDecoderTests {
    func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test("plain characters, Enter, Tab, Backspace and control letters")
    func plainKeys() {
        #expect(decode("kj+-=dDq?") == "kj+-=dDq?".map { .key(.character($0), []) })
        #expect(decode("\r") == [.key(.enter, [])])
        #expect(decode("\t") == [.key(.tab, [])])
        #expect(decode("\u{7F}") == [.key(.backspace, [])])
        #expect(decode("\u{08}") == [.key(.backspace, [])])
        #expect(decode("\u{03}") == [.key(.character("c"), [.ctrl])])
        #expect(decode("\u{1A}") == [.key(.character("z"), [.ctrl])])
        #expect(decode("\u{0B}") == [.key(.character("k"), [.ctrl])])
        #expect(decode("\u{0A}") == [.key(.character("j"), [.ctrl])])
    }

    @Test("UTF-8 characters, whole and split between reads")
    func utf8() {
        #expect(decode("é∞") == [.key(.character("é"), []), .key(.character("∞"), [])])
        var decoder = InputDecoder()
        let bytes = Array("€".utf8)  // three bytes
        #expect(decoder.feed(bytes[0..<1]) == [])
        #expect(decoder.feed(bytes[1..<2]) == [])
        #expect(decoder.feed(bytes[2...]) == [.key(.character("€"), [])])
        #expect(!decoder.hasPendingBytes)
    }

    @Test("cursor keys in normal and application mode, with xterm modifiers")
    func arrows() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(decode("\u{1B}[1;5A") == [.key(.up, [.ctrl])])
        #expect(decode("\u{1B}[1;3B") == [.key(.down, [.alt])])
        #expect(decode("\u{1B}[1;2C") == [.key(.right, [.shift])])
        #expect(decode("\u{1B}[1;7D") == [.key(.left, [.ctrl, .alt])])
        #expect(decode("\u{1B}[1;9A") == [.key(.up, [.meta])])
    }

    @Test("Home, End, Page Up, Page Down, Insert, Delete in their common encodings")
    func editingKeys() {
        #expect(decode("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF") == [.key(.home), .key(.end), .key(.home), .key(.end)])
        #expect(decode("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.key(.home), .key(.end), .key(.home), .key(.end)])
        #expect(decode("\u{1B}[5~\u{1B}[6~") == [.key(.pageUp), .key(.pageDown)])
        #expect(decode("\u{1B}[5;5~") == [.key(.pageUp, [.ctrl])])
        #expect(decode("\u{1B}[2~\u{1B}[3~") == [.key(.insert), .key(.delete)])
    }

    @Test("Shift-Tab, Alt+key, function keys")
    func otherKeys() {
        #expect(decode("\u{1B}[Z") == [.key(.backTab)])
        #expect(decode("\u{1B}k") == [.key(.character("k"), [.alt])])
        #expect(decode("\u{1B}+") == [.key(.character("+"), [.alt])])
        #expect(decode("\u{1B}OP\u{1B}[15~\u{1B}[24~") == [.key(.function(1)), .key(.function(5)), .key(.function(12))])
        #expect(decode("\u{1B}[1;5P") == [.key(.function(1), [.ctrl])])
    }

    @Test("kitty and modifyOtherKeys encodings of keys")
    func extendedKeys() {
        #expect(decode("\u{1B}[106;5u") == [.key(.character("j"), [.ctrl])])
        #expect(decode("\u{1B}[9;2u") == [.key(.backTab)])
        #expect(decode("\u{1B}[13u") == [.key(.enter)])
        #expect(decode("\u{1B}[27;5;107~") == [.key(.character("k"), [.ctrl])])
    }

    @Test("SGR mouse: presses, releases, drags, wheel, modifiers; coordinates from 0")
    func sgrMouse() {
        #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(.press(.left), x: 9, y: 4))])
        #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(.release(.left), x: 9, y: 4))])
        #expect(decode("\u{1B}[<2;1;1M") == [.mouse(MouseEvent(.press(.right), x: 0, y: 0))])
        #expect(decode("\u{1B}[<32;11;3M") == [.mouse(MouseEvent(.drag(.left), x: 10, y: 2))])
        #expect(decode("\u{1B}[<35;11;3M") == [.mouse(MouseEvent(.move, x: 10, y: 2))])
        #expect(decode("\u{1B}[<64;4;4M") == [.mouse(MouseEvent(.wheel(.up), x: 3, y: 3))])
        #expect(decode("\u{1B}[<65;4;4M") == [.mouse(MouseEvent(.wheel(.down), x: 3, y: 3))])
        // Ctrl = 16, Alt = 8, Shift = 4 added to the button number.
        #expect(decode("\u{1B}[<80;4;4M") == [.mouse(MouseEvent(.wheel(.up), x: 3, y: 3, modifiers: [.ctrl]))])
        #expect(decode("\u{1B}[<40;7;8M") == [.mouse(MouseEvent(.drag(.left), x: 6, y: 7, modifiers: [.alt]))])
        #expect(decode("\u{1B}[<4;7;8M") == [.mouse(MouseEvent(.press(.left), x: 6, y: 7, modifiers: [.shift]))])
    }

    @Test("SGR-pixel mouse reports: the same form with pixel coordinates, beyond 223")
    func pixelMouse() {
        #expect(decode("\u{1B}[<0;1234;567M") == [.mouse(MouseEvent(.press(.left), x: 1233, y: 566))])
        #expect(decode("\u{1B}[<32;1250;480M") == [.mouse(MouseEvent(.drag(.left), x: 1249, y: 479))])
        #expect(decode("\u{1B}[<0;1250;480m") == [.mouse(MouseEvent(.release(.left), x: 1249, y: 479))])
    }

    @Test("replies to the panel's questions: mode reports and the cell size")
    func replies() {
        #expect(decode("\u{1B}[?2026;2$y") == [.modeReport(mode: 2026, state: 2)])
        #expect(decode("\u{1B}[?1016;0$y") == [.modeReport(mode: 1016, state: 0)])
        #expect(decode("\u{1B}[6;18;9t") == [.cellSize(width: 9, height: 18)])
    }

    @Test("unknown sequences are consumed whole and never leak as characters")
    func unknownIgnored() {
        let noise = [
            "\u{1B}[201~",                       // a paste's end marker without its start
            "\u{1B}[I", "\u{1B}[O",              // focus in/out
            "\u{1B}[?62;22c", "\u{1B}[>1;10;0c", // device attributes
            "\u{1B}]11;rgb:0000/0000/0000\u{07}", // OSC reply ending in BEL
            "\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\", // OSC reply ending in ST
            "\u{1B}P1$r0m\u{1B}\\",              // DCS reply
            "\u{1B}[99~", "\u{1B}[4 q", "\u{1B}Ox",
            "\u{1B}[<0;1M",                       // mouse report with a missing field
        ]
        for sequence in noise {
            #expect(decode("a" + sequence + "b") == [.char("a"), .char("b")], "\(sequence.debugDescription)")
        }
    }

    @Test("a sequence cut by a control byte is dropped; the control byte still counts")
    func interrupted() {
        #expect(decode("\u{1B}[1;\u{03}") == [.key(.character("c"), [.ctrl])])
    }

    @Test("a lone ESC waits, then flush makes it the Escape key; ESC ESC is Escape then ESC")
    func escape() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingBytes)
        #expect(decoder.flush() == [.key(.escape)])
        #expect(!decoder.hasPendingBytes)
        #expect(decoder.feed(Array("\u{1B}\u{1B}[A".utf8)) == [.key(.escape), .key(.up)])
        // An unfinished sequence flushed: Escape, the rest dropped.
        #expect(decoder.feed(Array("\u{1B}[1;".utf8)) == [])
        #expect(decoder.flush() == [.key(.escape)])
        #expect(decoder.feed(Array("x".utf8)) == [.char("x")])
    }

    /// A stream of everything above; fed split at every possible point into two reads, or one
    /// byte at a time, it must decode exactly as when fed whole.
    static let stream = "k\u{1B}[1;5A\u{1B}[<0;10;5M\u{1B}[<32;12;3M\u{1B}[<0;12;3m€\u{1B}[5~\u{1B}]11;x\u{07}"
        + "\u{1B}[?2026;2$y\u{1B}[6;18;9t\u{1B}OA\u{1B}[Z\u{1B}j\u{1B}[<1234;1;1M\r"

    @Test("sequences split across reads at every byte decode as when whole")
    func splitAnywhere() {
        let bytes = Array(Self.stream.utf8)
        var whole = InputDecoder()
        let expected = whole.feed(bytes)
        #expect(expected.count == 14)
        for cut in 0...bytes.count {
            var decoder = InputDecoder()
            let events = decoder.feed(bytes[..<cut]) + decoder.feed(bytes[cut...])
            #expect(events == expected, "cut at \(cut)")
            #expect(!decoder.hasPendingBytes)
        }
        var bytewise = InputDecoder()
        #expect(bytes.flatMap { bytewise.feed([$0]) } == expected)
    }

    @Test("an endless sequence is dropped to its end instead of growing without bound")
    func runaway() {
        var decoder = InputDecoder()
        let junk = "\u{1B}[" + String(repeating: "1;", count: 400)
        #expect(decoder.feed(Array(junk.utf8)) == [])
        #expect(!decoder.hasPendingBytes)
        #expect(decoder.feed(Array("1;1Ax".utf8)) == [.char("x")])
    }
}
